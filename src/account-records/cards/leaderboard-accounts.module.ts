import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountRoleEntity } from '../entities/account-role.entity';
import { AccountEntity } from '../entities/account.entity';
import { CardReplica } from '../card-replica/card-replica.service';
import { LeaderboardAccountsService } from './leaderboard-accounts.service';

/** The cards of listings (board pages, crafters, owners, feeds, friend paths), for any area that lists accounts. */
@Module({
  imports: [TypeOrmModule.forFeature([AccountEntity, AccountRoleEntity])],
  providers: [LeaderboardAccountsService, CardReplica],
  exports: [LeaderboardAccountsService, CardReplica],
})
export class LeaderboardAccountsModule {}
