import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { LeaderboardAccountsModule } from '../account-records/cards/leaderboard-accounts.module';
import { ItemOwnersService } from './item-owners.service';
import { ItemsController } from './items.controller';

@Module({ imports: [AccountsModule, LeaderboardAccountsModule], controllers: [ItemsController], providers: [ItemOwnersService] })
export class ItemsModule {}
