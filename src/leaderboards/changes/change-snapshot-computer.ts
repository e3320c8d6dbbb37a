import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { REDIS } from '../../common/redis/redis.module';
import { TimeSlices } from '../../common/scheduling/time-slices';
import { queryWithoutJit } from '../../common/sql/query-without-jit';
import { BoardScope } from '../../ranks/rank-reader.service';
import { accountOf, memberOf } from '../../ranks/rank-scopes';
import { ReplicaBoard } from '../../ranks/replica/rank-replica';
import { RankReplicaService } from '../../ranks/replica/rank-replica.service';
import { CHANGE_COLUMNS, ChangeKeys, ChangeWindow, LiveWindow, WINDOW_DAYS, isLiveWindow } from './change-keys';
import { ChangeRow } from './change-rows';
import { BEATS_MANY } from './change-scripts';

const CHUNK = 1_000;
/**
 * Look-ups per BEATS_MANY script. A script holds Redis, which every request shares, for its whole run: 1,000 took
 * 5.6 ms each at a million accounts (~2 µs a ZADD/ZREVRANK/ZREM probe), 200 keep it near a millisecond.
 */
const BEATS_PER_SCRIPT = 200;

/** How deep into a board the accounts that fell without being refreshed are looked for (see `fallers`). */
export const FALLERS_DEPTH = 10_000;

/** A score and the member holding it, as the boards order them (inBoardOrder). */
type ScoredMember = [score: number, member: string];

/** A mover of a window: its score now and at the window's start (equal when only others moved it). */
interface Mover {
  member: string;
  cur: number;
  old: number;
  changed: boolean;
}

/**
 * Every visible mover's ranks at both ends of one (column, window), the computation behind a ChangeSnapshots
 * snapshot. Who moved, and their scores at both ends, come from the live sets for the live window (24h) and from
 * one set-based read of PostgreSQL for the longer ones (which keep nothing in Redis); every rank then follows the
 * arithmetic of LIVE_PAGE (change-scripts.ts) done in bulk: the counts among the changed movers from sorted arrays
 * here, the counts over the whole board from the rank engine (this process's replica of it where one serves).
 * O(movers · log N), never run per page.
 */
@Injectable()
export class ChangeSnapshotComputer {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly replica: RankReplicaService,
  ) {}

  async compute(keys: ChangeKeys, version: string, board: BoardScope, window: ChangeWindow): Promise<ChangeRow[]> {
    // Every mover of a window: most of the population at a million accounts for 30 days, seconds of sorting and
    // counting. Done in slices (time-slices.ts), so that the process's requests go on meanwhile.
    const slices = new TimeSlices();
    const movers = isLiveWindow(window)
      ? await this.liveMovers(keys, version, board, window)
      : await this.storedMovers(board.column, window, slices);
    // This process's replica of the board (one scope: the global board) answers the look-ups in microseconds each;
    // without one (the worker, a replica still loading) Redis answers them, a script per BEATS_PER_SCRIPT.
    const local = board.scopes.length === 1 ? this.replica.board(board.column, board.scopes[0]) : undefined;
    const scored = local ? local.scored() : await this.redis.zcard(board.key);
    const pairs = async (keep: (m: Mover) => boolean, score: (m: Mover) => number): Promise<ScoredMember[]> =>
      slices.map(await slices.filter(movers, keep), (m): ScoredMember => [score(m), m.member]);
    const now = (m: Mover) => m.cur;
    const before = (m: Mover) => m.old;
    const changedCur = await slices.sort(await pairs((m) => m.changed && m.cur > 0, now), inBoardOrder);
    const changedOld = await slices.sort(await pairs((m) => m.changed && m.old > 0, before), inBoardOrder);
    const newAhead = await this.beats(board.key, await pairs((m) => m.cur > 0, now), local, slices);
    const oldAhead = await this.beats(board.key, changedOld, local, slices);
    const hidden = await this.hidden();
    const rows: ChangeRow[] = [];
    await slices.forEach(movers.length, (i) => {
      const m = movers[i];
      const accountId = accountOf(m.member);
      if (hidden.has(accountId)) return;
      const newRank = m.cur > 0 ? newAhead.get(m.member)! + 1 : scored + 1;
      let oldRank: number;
      if (m.old <= 0) oldRank = 1 + scored - changedCur.length + changedOld.length;
      else {
        const ahead = m.changed ? oldAhead.get(m.member)! : newRank - 1;
        oldRank = 1 + ahead - countAhead(changedCur, m.old, m.member) + countAhead(changedOld, m.old, m.member);
      }
      rows.push({ accountId, oldRank, newRank, oldScore: m.old, newScore: m.cur });
    });
    for (const row of await this.fallers(board, movers, changedCur, changedOld, hidden, slices)) rows.push(row);
    return rows;
  }

  /**
   * The accounts that moved without moving themselves: not refreshed in the window (their score is as it was), passed
   * by movers whose score rose past theirs (they fell), or, more rarely, passed by movers whose score fell (they rose).
   * A non-mover's rank moves by the changed movers now ahead of it less those
   * that were ahead at the window's start (the same arithmetic as a mover's), so its old rank follows from its place
   * now. Looked for among the board's first FALLERS_DEPTH places only: further down, nearly every account falls
   * whenever anyone rises (a first craft passes everyone below it), and listing them would copy the board. Read in one
   * range of the board's sorted set, O(FALLERS_DEPTH · log movers). Zero values are unranked and fall nowhere.
   */
  private async fallers(
    board: BoardScope,
    movers: Mover[],
    changedCur: ScoredMember[],
    changedOld: ScoredMember[],
    hidden: Set<number>,
    slices: TimeSlices,
  ): Promise<ChangeRow[]> {
    if (!changedCur.length) return [];
    const moved = new Set(movers.map((m) => m.member));
    const top = await this.redis.zrevrange(board.key, 0, FALLERS_DEPTH - 1, 'WITHSCORES');
    const rows: ChangeRow[] = [];
    await slices.forEach(top.length / 2, (i) => {
      const [member, score] = [top[2 * i], Number(top[2 * i + 1])];
      if (moved.has(member) || score <= 0) return;
      const fell = countAhead(changedCur, score, member) - countAhead(changedOld, score, member);
      const accountId = accountOf(member);
      if (fell === 0 || hidden.has(accountId)) return;
      rows.push({ accountId, oldRank: i + 1 - fell, newRank: i + 1, oldScore: score, newScore: score });
    });
    return rows;
  }

  /** A live window's movers, with their scores from its cur and old sets (a mover whose score changed is in one). */
  private async liveMovers(keys: ChangeKeys, version: string, board: BoardScope, window: LiveWindow): Promise<Mover[]> {
    const members = (await this.moverIds(window)).map(memberOf);
    const [curKey, oldKey] = [keys.set(version, window, board.column, 'cur'), keys.set(version, window, board.column, 'old')];
    const movers: Mover[] = [];
    for (let i = 0; i < members.length; i += CHUNK) {
      const chunk = members.slice(i, i + CHUNK);
      const [[, onBoard], [, cur], [, old]] = (await this.redis
        .pipeline()
        .zmscore(board.key, ...chunk)
        .zmscore(curKey, ...chunk)
        .zmscore(oldKey, ...chunk)
        .exec()) as [unknown, (string | null)[]][];
      chunk.forEach((member, j) => {
        // A mover whose score changed is in the cur or old set (in both when neither end is 0).
        const changed = cur[j] !== null || old[j] !== null;
        const now = changed ? Number(cur[j] ?? 0) : Number(onBoard[j] ?? 0);
        movers.push({ member, cur: now, old: changed ? Number(old[j] ?? 0) : now, changed });
      });
    }
    return movers;
  }

  /**
   * Every mover of a window: its latest completed run (which stamps `accounts.updated_at`) is in the window and was
   * not its first. ix_accounts_updated_at finds the accounts (a parallel scan of `accounts` when the window holds
   * most of them), one probe of ix_account_updates_account_completed each the earlier run.
   */
  private async moverIds(window: ChangeWindow): Promise<number[]> {
    const rows = await queryWithoutJit<{ account_id: number }>(
      this.dataSource,
      `SELECT a.account_id FROM accounts a
        WHERE a.updated_at >= now() - make_interval(days => $1)
          AND EXISTS (SELECT 1 FROM account_updates p
                       WHERE p.account_id = a.account_id AND p.status = 'completed' AND p.finished_at < a.updated_at)`,
      [WINDOW_DAYS[window]],
    );
    return rows.map((row) => row.account_id);
  }

  /**
   * A snapshot window's movers with both scores, in one statement: the current score is the account's column, the
   * window-start score what its first run in the window that was not its first ever found before it ran (as
   * readPlacements has it for the live windows; a counter the run did not record counts as unchanged).
   */
  private async storedMovers(column: string, window: ChangeWindow, slices: TimeSlices): Promise<Mover[]> {
    const { counter } = CHANGE_COLUMNS.find((c) => c.column === column)!;
    const rows = await queryWithoutJit<{ account_id: number; cur: number | string | null; old: string | null }>(
      this.dataSource,
      `SELECT a.account_id, a.${column} AS cur, f.old
         FROM accounts a
        CROSS JOIN LATERAL (
              SELECT u.before ->> $2 AS old FROM account_updates u
               WHERE u.account_id = a.account_id AND u.status = 'completed' AND u.finished_at >= now() - make_interval(days => $1)
                 AND EXISTS (SELECT 1 FROM account_updates p
                              WHERE p.account_id = u.account_id AND p.status = 'completed' AND p.finished_at < u.finished_at)
               ORDER BY u.finished_at LIMIT 1) f
        WHERE a.updated_at >= now() - make_interval(days => $1)`,
      [WINDOW_DAYS[window], counter],
    );
    return slices.map(rows, (row) => {
      const cur = Number(row.cur ?? 0);
      const recorded = row.old === null || row.old === '' ? NaN : Number(row.old);
      const old = Number.isFinite(recorded) ? recorded : cur;
      return { member: memberOf(row.account_id), cur, old, changed: cur !== old };
    });
  }

  /** How many entries of `key` (or of its replica, `local`) rank ahead of each (score, member), by member. */
  private async beats(
    key: string,
    pairs: ScoredMember[],
    local: ReplicaBoard | undefined,
    slices: TimeSlices,
  ): Promise<Map<string, number>> {
    const ahead = new Map<string, number>();
    if (local) {
      await slices.forEach(pairs.length, (i) => ahead.set(pairs[i][1], local.countAhead(pairs[i][0], accountOf(pairs[i][1]))));
      return ahead;
    }
    for (let i = 0; i < pairs.length; i += BEATS_PER_SCRIPT) {
      const chunk = pairs.slice(i, i + BEATS_PER_SCRIPT);
      const counts = (await this.redis.eval(BEATS_MANY, 1, key, ...chunk.flatMap(([score, member]) => [score, member]))) as number[];
      chunk.forEach(([, member], j) => ahead.set(member, counts[j]));
    }
    return ahead;
  }

  private async hidden(): Promise<Set<number>> {
    const rows: { account_id: number }[] = await this.dataSource.query('SELECT account_id FROM account_settings WHERE hidden');
    return new Set(rows.map((row) => row.account_id));
  }
}

/** Board order of (score, member) pairs: higher score first, then the greater member (the lower account id). */
function inBoardOrder([sa, ma]: ScoredMember, [sb, mb]: ScoredMember): number {
  return sb - sa || (ma < mb ? 1 : ma > mb ? -1 : 0);
}

/** How many pairs of a board-ordered array rank ahead of (score, member) (binary search). */
function countAhead(sorted: ScoredMember[], score: number, member: string): number {
  let [lo, hi] = [0, sorted.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const [s, m] = sorted[mid];
    if (s > score || (s === score && m > member)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
