import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountRoleEntity } from './entities/account-role.entity';
import { AccountEntity } from './entities/account.entity';
import { LeaderboardAccountsService } from './leaderboard-accounts.service';

/** Account rows for the listings of other areas (crafters, owners), without the rest of the accounts area. */
@Module({
  imports: [TypeOrmModule.forFeature([AccountEntity, AccountRoleEntity])],
  providers: [LeaderboardAccountsService],
  exports: [LeaderboardAccountsService],
})
export class LeaderboardAccountsModule {}
