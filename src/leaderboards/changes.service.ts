import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { LeaderboardAccountsService } from '../account-records/cards/leaderboard-accounts.service';
import { serviceUnavailable } from '../common/problem/problem.exception';
import { holdRawJson } from '../common/wire/raw-json';
import { REDIS } from '../common/redis/redis.module';
import { aroundVersion, RankReader } from '../ranks/rank-reader.service';
import { accountOf } from '../ranks/rank-scopes';
import { COLUMN_BOARDS, SNAPSHOT_COUNTERS } from '../ranks/account-boards';
import { BoardChanges } from './changes/board-changes.service';
import { LiveWindow, SetKind, isLiveWindow } from './changes/change-keys';
import { ChangeRow, inTopAtEitherEnd, rankDelta, scoreDelta, shownRank } from './changes/change-rows';
import { LIVE_PAGE } from './changes/change-scripts';
import { ChangeSnapshots, SnapshotList } from './changes/change-snapshots.service';
import { LeaderboardGetChangesRequestBody as Request, LeaderboardGetChangesResponseBody } from './dto/changes.dto';

type LivePageScript = (...args: (string | number)[]) => Promise<(number | string)[]>;

/**
 * `leaderboard.getChanges`: movers over a window. An account's old score is the value its first update in the
 * window found before it ran (an account's very first update has no "before" and is not a change); the old board
 * is the current one with every mover back at its old score. Ranks follow the rank engine: every refreshed
 * account holds one (hidden ones too, though they are never listed), ties go to the lower account id, and a score
 * of 0 is unranked: rank 0 on the wire, in no top N, and the place after the board's last ranked account for the
 * rank change (entering a board is a climb; change-rows.ts). Listed by rank, accounts that were not refreshed but that movers passed (they
 * fell; or rose, when a mover fell past them) are movers too, within the board's first FALLERS_DEPTH places
 * (change-snapshot-computer.ts).
 *
 * Served from derived state (src/leaderboards/changes): by score over the whole board of the live window (24h),
 * live from the maintained sorted sets (a page is O(limit · log N), one script reading the versions too); by rank,
 * or within a top N, from a snapshot a few seconds old at most (ChangeSnapshots), since a rank change moves whenever
 * anyone else moves; every list of the longer windows (7d, 30d, 90d, 1y) from a snapshot computed from PostgreSQL,
 * a minute old when read steadily (a large part of the population moves in them: kept live, they would cost
 * ~0.9 GB of Redis at a million accounts). The listed accounts' cards are one more query.
 */
@Injectable()
export class ChangesService {
  private readonly livePageScript: LivePageScript;
  /** The four keys of a live page around their versions (LIVE_PAGE's ARGV), per window, column and direction. */
  private readonly liveKeys = new Map<string, string[]>();

  constructor(
    private readonly accounts: LeaderboardAccountsService,
    private readonly ranks: RankReader,
    private readonly boardChanges: BoardChanges,
    private readonly snapshots: ChangeSnapshots,
    @Inject(REDIS) redis: Redis,
  ) {
    // defineCommand runs the script by EVALSHA (loaded once per connection): EVAL sent all of it on every page.
    redis.defineCommand('badgeStatsChangesLivePage', { numberOfKeys: 2, lua: LIVE_PAGE });
    const command = (redis as unknown as Record<string, LivePageScript>).badgeStatsChangesLivePage;
    this.livePageScript = command.bind(redis) as LivePageScript;
  }

  async changes(request: Request): Promise<LeaderboardGetChangesResponseBody> {
    // Boards whose value no update records (awards, points) cannot have moved.
    if (!SNAPSHOT_COUNTERS[request.leaderboard]) return { changes: [] };
    const column = COLUMN_BOARDS[request.leaderboard]!;
    const [offset, limit] = [request.offset ?? 0, request.limit ?? 100];
    const up = request.direction === 'improvements';
    const top = request.topFilter && request.topFilter !== 'all' ? Number(request.topFilter) : null;
    const window = request.window;
    const live = top === null && request.metric === 'score' && isLiveWindow(window);
    const rows =
      live && isLiveWindow(window)
        ? await this.live(column, window, up, offset, limit)
        : await this.snapshot(column, request, up, top, offset, limit);
    // The cards go out as PostgreSQL wrote them (RawJson): 100 of them are most of the answer's bytes. When each
    // account last moved comes with them (a mover's latest update is its latest completed run: `updated_at`). A
    // snapshot left out who was hidden when it was computed; one who chose to hide since is left out here.
    const ids = rows.map((row) => row.accountId);
    const { cards, updated, hidden } = live
      ? { ...(await this.accounts.rawByIdsWithUpdated(ids)), hidden: new Set<number>() }
      : await this.accounts.rawByIdsWithUpdatedAndHidden(ids);
    return holdRawJson({
      changes: rows
        .filter((row) => !hidden.has(row.accountId))
        .map((row) => ({
          accountId: row.accountId,
          oldRank: shownRank(row.oldRank, row.oldScore),
          newRank: shownRank(row.newRank, row.newScore),
          rankDelta: rankDelta(row),
          oldScore: row.oldScore,
          newScore: row.newScore,
          scoreDelta: scoreDelta(row),
          latestDate: new Date(updated.get(row.accountId) ?? 0).toISOString(),
          account: cards.get(row.accountId) ?? null,
        })),
    });
  }

  /** By rank, within a top N, or over a window kept in snapshots only: a page of a snapshot (ChangeSnapshots). */
  private async snapshot(column: string, request: Request, up: boolean, top: number | null, offset: number, limit: number) {
    const version = await this.version();
    const board = await this.ranks.scope(column, null);
    if (top === null) {
      const list = `${request.metric}-${up ? 'up' : 'down'}` as SnapshotList;
      return this.snapshots.read(version, board, request.window, list, offset, limit);
    }
    const list = `top-${request.metric}-${up ? 'up' : 'down'}` as SnapshotList;
    const inTop = (row: ChangeRow) => inTopAtEitherEnd(row, top);
    return this.snapshots.read(version, board, request.window, list, offset, limit, inTop);
  }

  /** The changes' version being served; while none exists, 503 (and a build is started). */
  private async version(): Promise<string> {
    const version = await this.boardChanges.currentVersion();
    if (!version) throw serviceUnavailable('The leaderboard changes are being rebuilt; try again in a minute.', 60);
    return version;
  }

  /**
   * A page of the maintained up or down set, ranked at both ends, in one script that also reads both versions. A
   * state without a version is reported by the usual checks (503, a build started); one that appeared meanwhile is
   * read again.
   */
  private async live(column: string, window: LiveWindow, up: boolean, offset: number, limit: number, again = true): Promise<ChangeRow[]> {
    const keys = [this.boardChanges.keys.version, this.ranks.versionKey];
    const flat = await this.livePageScript(...keys, offset, limit, up ? 1 : 0, ...this.liveKeysOf(column, window, up));
    if (flat.length === 1) {
      await this.version();
      await this.ranks.version();
      if (again) return this.live(column, window, up, offset, limit, false);
      throw serviceUnavailable('The leaderboard changes are being rebuilt; try again in a minute.', 60);
    }
    const rows: ChangeRow[] = [];
    for (let i = 0; i < flat.length; i += 5) {
      rows.push({
        accountId: accountOf(String(flat[i])),
        newRank: Number(flat[i + 1]),
        oldRank: Number(flat[i + 2]),
        newScore: Number(flat[i + 3]),
        oldScore: Number(flat[i + 4]),
      });
    }
    return rows;
  }

  private liveKeysOf(column: string, window: LiveWindow, up: boolean): string[] {
    const id = `${column} ${window} ${up}`;
    let keys = this.liveKeys.get(id);
    if (!keys) {
      const changes = this.boardChanges.keys;
      const set = (kind: SetKind) => aroundVersion((version) => changes.set(version, window, column, kind));
      keys = [...set(up ? 'up' : 'down'), ...this.ranks.boardKeyAround(column), ...set('cur'), ...set('old')];
      this.liveKeys.set(id, keys);
    }
    return keys;
  }
}
