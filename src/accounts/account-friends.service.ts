import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { forbidden } from '../common/problem/problem.exception';
import { AccountLookupService, AccountSelector } from '../account-records/account-lookup.service';
import { V1AccountListFriendsResponseBody } from './dto/list-friends.dto';
import { AccountFriendEntity } from '../account-records/entities/account-friend.entity';
import { LeaderboardAccountsService } from '../account-records/cards/leaderboard-accounts.service';

/** `account.listFriends`: the account's friends that this service tracks, with their profiles. */
@Injectable()
export class AccountFriendsService {
  constructor(
    private readonly lookup: AccountLookupService,
    private readonly accounts: LeaderboardAccountsService,
    @InjectRepository(AccountFriendEntity) private readonly friendships: Repository<AccountFriendEntity>,
  ) {}

  async list(selector: AccountSelector): Promise<V1AccountListFriendsResponseBody> {
    const account = await this.lookup.findTracked(selector);
    if (account.friendPrivacy === 'private') throw forbidden(`The friend list of account ${account.accountId} is private.`);
    const friendships = await this.friendships.find({
      where: { accountId: account.accountId },
      order: { friendSince: { direction: 'DESC', nulls: 'LAST' } },
    });
    const cards = await this.accounts.byIds(friendships.map((f) => f.friendAccountId));
    return {
      friends: friendships
        .filter((f) => cards.has(f.friendAccountId))
        .map((f) => Object.assign({}, cards.get(f.friendAccountId)!, { friendsSince: f.friendSince?.toISOString() ?? null })),
    };
  }
}
