import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { forbidden } from '../common/problem/problem.exception';
import { AccountLookupService, AccountSelector } from './account-lookup.service';
import { V1AccountListFriendsResponseBody } from './dto/leaderboard-account.dto';
import { AccountFriendEntity } from './entities/account-friend.entity';
import { AccountRoleEntity } from './entities/account-role.entity';
import { AccountEntity } from './entities/account.entity';
import { toLeaderboardAccount } from './mappers/profile.mapper';

/** `account.listFriends`: the account's friends that this service tracks, with their profiles. */
@Injectable()
export class AccountFriendsService {
  constructor(
    private readonly lookup: AccountLookupService,
    @InjectRepository(AccountFriendEntity) private readonly friendships: Repository<AccountFriendEntity>,
    @InjectRepository(AccountEntity) private readonly accounts: Repository<AccountEntity>,
    @InjectRepository(AccountRoleEntity) private readonly roles: Repository<AccountRoleEntity>,
  ) {}

  async list(selector: AccountSelector): Promise<V1AccountListFriendsResponseBody> {
    const account = await this.lookup.findTracked(selector);
    if (account.friendPrivacy === 'private') throw forbidden(`The friend list of account ${account.accountId} is private.`);
    const friendships = await this.friendships.find({
      where: { accountId: account.accountId },
      order: { friendSince: { direction: 'DESC', nulls: 'LAST' } },
    });
    const ids = friendships.map((f) => f.friendAccountId);
    const [friends, roles] = ids.length
      ? await Promise.all([this.accounts.find({ where: { accountId: In(ids) } }), this.roles.find({ where: { accountId: In(ids) } })])
      : [[], []];
    const byId = new Map(friends.map((friend) => [friend.accountId, friend]));
    return {
      friends: friendships
        .filter((f) => byId.has(f.friendAccountId))
        .map((f) => ({
          ...toLeaderboardAccount(
            byId.get(f.friendAccountId)!,
            roles.filter((r) => r.accountId === f.friendAccountId),
          ),
          friendsSince: f.friendSince?.toISOString() ?? null,
        })),
    };
  }
}
