import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { LeaderboardAccountsService } from '../accounts/leaderboard-accounts.service';
import { serviceUnavailable } from '../common/problem/problem.exception';
import { REDIS } from '../common/redis/redis.module';
import { BoardScope, RankReader } from '../ranks/rank-reader.service';
import { accountOf } from '../ranks/rank-scopes';
import { COLUMN_BOARDS, SNAPSHOT_COUNTERS } from './account-boards';
import { BoardChanges } from './changes/board-changes.service';
import { ChangeWindow } from './changes/change-keys';
import { ChangeRow, rankDelta, scoreDelta } from './changes/change-rows';
import { LIVE_PAGE } from './changes/change-scripts';
import { ChangeSnapshots, SnapshotList } from './changes/change-snapshots.service';
import { LeaderboardGetChangesRequestBody as Request, LeaderboardGetChangesResponseBody } from './dto/changes.dto';

/**
 * `leaderboard.getChanges`: movers over a window. An account's old score is the value its first update in the
 * window found before it ran (an account's very first update has no "before" and is not a change); the old board
 * is the current one with every mover back at its old score. Ranks follow the rank engine: every refreshed
 * account holds one (hidden ones too, though they are never listed), ties go to the lower account id, and a score
 * of 0 shares the board's last rank.
 *
 * Served from derived state (src/leaderboards/changes): by score over the whole board, live from the maintained
 * sorted sets (a page is O(limit · log N)); by rank, or within a top N, from a snapshot a few seconds old at most
 * (ChangeSnapshots), since a rank change moves whenever anyone else moves.
 */
@Injectable()
export class ChangesService {
  constructor(
    private readonly accounts: LeaderboardAccountsService,
    private readonly ranks: RankReader,
    private readonly boardChanges: BoardChanges,
    private readonly snapshots: ChangeSnapshots,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async changes(request: Request): Promise<LeaderboardGetChangesResponseBody> {
    // Boards whose value no update records (awards, points) cannot have moved.
    if (!SNAPSHOT_COUNTERS[request.leaderboard]) return { changes: [] };
    const column = COLUMN_BOARDS[request.leaderboard]!;
    const version = await this.boardChanges.currentVersion();
    if (!version) throw serviceUnavailable('The leaderboard changes are being rebuilt; try again in a minute.', 60);
    const board = await this.ranks.scope(column, null);
    const [offset, limit] = [request.offset ?? 0, request.limit ?? 100];
    const up = request.direction === 'improvements';
    const top = request.topFilter && request.topFilter !== 'all' ? Number(request.topFilter) : null;
    let rows: ChangeRow[];
    if (top === null && request.metric === 'score') rows = await this.live(version, board, request.window, up, offset, limit);
    else if (top === null) rows = await this.snapshots.read(version, board, request.window, up ? 'rank-up' : 'rank-down', offset, limit);
    else {
      const list = `top-${request.metric}-${up ? 'up' : 'down'}` as SnapshotList;
      const inTop = (row: ChangeRow) => row.newRank <= top || row.oldRank <= top;
      rows = await this.snapshots.read(version, board, request.window, list, offset, limit, inTop);
    }
    const cards = await this.accounts.byIds(rows.map((row) => row.accountId));
    return {
      changes: rows.map((row) => ({
        accountId: row.accountId,
        oldRank: row.oldRank,
        newRank: row.newRank,
        rankDelta: rankDelta(row),
        oldScore: row.oldScore,
        newScore: row.newScore,
        scoreDelta: scoreDelta(row),
        latestDate: new Date(row.latest).toISOString(),
        account: cards.get(row.accountId) ?? null,
      })),
    };
  }

  /** A page of the maintained up or down set, ranked at both ends in the same atomic read. */
  private async live(version: string, board: BoardScope, window: ChangeWindow, up: boolean, offset: number, limit: number) {
    const set = (kind: 'up' | 'down' | 'cur' | 'old') => this.boardChanges.keys.set(version, window, board.column, kind);
    const keys = [set(up ? 'up' : 'down'), board.key, set('cur'), set('old'), this.boardChanges.keys.movers(version, window)];
    const flat = (await this.redis.eval(LIVE_PAGE, keys.length, ...keys, offset, limit, up ? 1 : 0)) as (number | string)[];
    const rows: ChangeRow[] = [];
    for (let i = 0; i < flat.length; i += 6) {
      const [member, newRank, oldRank, newScore, oldScore, latest] = flat.slice(i, i + 6);
      rows.push({
        accountId: accountOf(String(member)),
        newRank: Number(newRank),
        oldRank: Number(oldRank),
        newScore: Number(newScore),
        oldScore: Number(oldScore),
        latest: Number(latest),
      });
    }
    return rows;
  }
}
