import { Injectable } from '@nestjs/common';
import { ProblemException } from '../common/problem/problem.exception';
import { holdRawJson } from '../common/wire/raw-json';
import { accountIdOf } from '../account-records/account.enums';
import { AccountLookupService, AccountSelector, notTracked } from '../account-records/account-lookup.service';
import { steamId64Of } from '../account-records/account.enums';
import { V1AccountFindFriendPathRequestBody, V1AccountFindFriendPathResponseBody } from './dto/friend-path.dto';
import { FriendGraphCache } from './friends/friend-graph-cache.service';
import { findFriendPaths } from './friends/friend-search';
import { LeaderboardAccountsService } from '../account-records/cards/leaderboard-accounts.service';

/** How far apart two accounts may be for `account.findFriendPath` to find them. */
export const MAX_PATH_DEPTH = 6;
/**
 * The most friendships one search may read. Between random accounts of a million (average 8 friends, hubs up to
 * 500) a search reads ~2,200 at the median and under 30,000 in 4,000 random pairs (docs/performance-history.md); past this
 * bound the answer is "no path found" rather than unbounded work.
 */
export const MAX_FRIENDSHIPS_READ = 100_000;

/** `account.findFriendPath`: the shortest chains of friends between two tracked accounts. */
@Injectable()
export class FriendPathService {
  constructor(
    private readonly lookup: AccountLookupService,
    private readonly graph: FriendGraphCache,
    private readonly accounts: LeaderboardAccountsService,
  ) {}

  async find(request: V1AccountFindFriendPathRequestBody): Promise<V1AccountFindFriendPathResponseBody> {
    // The graph applies the updates completed before the request (FriendGraphCache.reader) while any vanity is looked up.
    const [from, to, excluded, reader] = await Promise.all([
      this.accountId(request.from, 'body.from'),
      this.accountId(request.to, 'body.to'),
      Promise.all((request.exclude ?? []).map((selector, i) => this.excludedId(selector, `body.exclude[${i}]`))),
      this.graph.reader(),
    ]);
    const exclude = new Set(excluded.filter((id): id is number => id !== null && id !== from && id !== to));
    const { paths } =
      from === to
        ? { paths: [] }
        : await findFriendPaths(
            from,
            to,
            { exclude, maxDepth: MAX_PATH_DEPTH, maxEdges: MAX_FRIENDSHIPS_READ, maxPaths: request.maxPaths ?? 10 },
            reader,
          );
    // The cards of both ends tell whether they are tracked (the search needs only ids): no lookup query of its own.
    // They go out as PostgreSQL wrote them (RawJson): up to ten paths of up to seven cards are most of the answer.
    // A hop between the ends that chose to be hidden is withheld, card and id, as on boards and owner pages (the ends
    // are the caller's own choice and always shown).
    const between = [...new Set(paths.flatMap((path) => path.slice(1, -1)))];
    const [cards, hidden] = await Promise.all([
      this.accounts.rawByIds([...new Set([from, to, ...between])]),
      between.length ? this.accounts.hiddenAmong(between) : new Set<number>(),
    ]);
    if (!cards.has(from) || !cards.has(to)) throw notTracked();
    return holdRawJson({
      found: paths.length > 0,
      // An account the service does not track has no card (null), but its id is known: `steamIds` names every hop, so
      // two paths through different untracked accounts never look alike.
      paths: paths.map((path) => ({
        distance: path.length - 1,
        path: path.map((id) => (hidden.has(id) ? null : (cards.get(id) ?? null))),
        steamIds: path.map((id) => (hidden.has(id) ? null : steamId64Of(id))),
      })),
    });
  }

  /** The account a selector names: an id as it is (whether it is tracked is told by its card), a vanity looked up. */
  private async accountId(selector: AccountSelector, at: string): Promise<number> {
    if (selector.id?.accountId !== undefined) return selector.id.accountId;
    if (selector.id?.steamId64 !== undefined) {
      const accountId = accountIdOf(selector.id.steamId64);
      if (accountId === null) throw notTracked();
      return accountId;
    }
    return (await this.lookup.findTracked(selector, at)).accountId;
  }

  /**
   * The account an `exclude` entry names. An id needs no lookup: an account the service does not track can still
   * be on a path (as `null`), since tracked accounts' lists name it. A vanity the service does not know names
   * nobody on a path; an entry that names no account at all is a 422 at `at`.
   */
  private async excludedId(selector: AccountSelector, at: string): Promise<number | null> {
    if (selector.id?.accountId !== undefined) return selector.id.accountId;
    if (selector.id?.steamId64 !== undefined) return accountIdOf(selector.id.steamId64);
    const account = await this.lookup.findTracked(selector, at).catch((error: unknown) => {
      if (error instanceof ProblemException && error.getStatus() === 404) return null;
      throw error;
    });
    return account?.accountId ?? null;
  }
}
