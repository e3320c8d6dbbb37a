import { Injectable } from '@nestjs/common';
import { ProblemException } from '../common/problem/problem.exception';
import { AccountLookupService } from './account-lookup.service';
import { V1AccountFindFriendPathRequestBody, V1AccountFindFriendPathResponseBody } from './dto/friend-path.dto';
import { FriendGraphService } from './friend-graph.service';
import { LeaderboardAccountsService } from './leaderboard-accounts.service';

/** How far apart two accounts may be for `account.findFriendPath` to find them. */
export const MAX_PATH_DEPTH = 6;

/** `account.findFriendPath`: the shortest chains of friends between two tracked accounts. */
@Injectable()
export class FriendPathService {
  constructor(
    private readonly lookup: AccountLookupService,
    private readonly graph: FriendGraphService,
    private readonly accounts: LeaderboardAccountsService,
  ) {}

  async find(request: V1AccountFindFriendPathRequestBody): Promise<V1AccountFindFriendPathResponseBody> {
    const [from, to] = await Promise.all([
      this.lookup.findTracked(request.from, 'body.from'),
      this.lookup.findTracked(request.to, 'body.to'),
    ]);
    // An excluded account the service does not know cannot be on a path anyway; one that names nobody is a 422.
    const excluded = await Promise.all(
      (request.exclude ?? []).map((selector, i) =>
        this.lookup.findTracked(selector, `body.exclude[${i}]`).catch((error: unknown) => {
          if (error instanceof ProblemException && error.getStatus() === 404) return null;
          throw error;
        }),
      ),
    );
    const exclude = new Set(
      excluded.flatMap((account) => (account ? [account.accountId] : [])).filter((id) => id !== from.accountId && id !== to.accountId),
    );
    if (from.accountId === to.accountId) return { found: false, paths: [] };
    const reach = await this.graph.reach(from.accountId, MAX_PATH_DEPTH, { target: to.accountId, exclude });
    const paths = FriendGraphService.paths(reach, to.accountId, request.maxPaths ?? 10);
    const cards = await this.accounts.byIds([...new Set(paths.flat())]);
    return {
      found: paths.length > 0,
      paths: paths.map((path) => ({ distance: path.length - 1, path: path.map((id) => cards.get(id) ?? null) })),
    };
  }
}
