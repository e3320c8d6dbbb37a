import { releaseLock, tryLock } from '../../common/redis/redis-lock';
import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { REDIS } from '../../common/redis/redis.module';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { BoardScope } from '../../ranks/rank-reader.service';
import { BoardChanges } from './board-changes.service';
import { ChangeKeys, ChangeWindow, isLiveWindow } from './change-keys';
import {
  ChangeRow,
  ROW_BYTES,
  byChange,
  inTopAtEitherEnd,
  packPositions,
  packRows,
  rankDelta,
  scoreDelta,
  unpackRows,
} from './change-rows';
import { TimeSlices } from '../../common/scheduling/time-slices';
import { READ_SNAPSHOT } from './change-scripts';
import { ChangeSnapshotComputer } from './change-snapshot-computer';

/**
 * The lists a snapshot serves: every mover by score change (the snapshot windows only; the live window lists by
 * score off its sets) and by rank change, and the movers of the top 1000 at either end by each change.
 */
export const SNAPSHOT_LISTS = [
  'score-up',
  'score-down',
  'rank-up',
  'rank-down',
  'top-score-up',
  'top-score-down',
  'top-rank-up',
  'top-rank-down',
] as const;
export type SnapshotList = (typeof SNAPSHOT_LISTS)[number];
/** The lists stored as positions into the rows (the score lists are runs of the rows themselves). */
const POSITION_LISTS = ['rank-up', 'rank-down', 'top-score-up', 'top-score-down', 'top-rank-up', 'top-rank-down'] as const;

/** The largest `topFilter`. */
const TOP = 1000;
/** Snapshots nobody asks for expire. */
const TTL_MS = 10 * 60_000;
/**
 * How old a snapshot may be. Up to `freshMs` (or twice its own computation, on a large board: computing snapshots
 * back to back would keep a core busy) it is served as it is; up to `staleMs` (or five computations) it is served
 * while a fresh one is computed; beyond, requests wait. The live window's rank lists are seconds old at most; the
 * other windows' lists, computed from PostgreSQL over a large part of the population, a minute when read steadily.
 */
export const FRESHNESS = {
  live: { freshMs: 2_000, staleMs: 10_000 },
  snapshot: { freshMs: 60_000, staleMs: 5 * 60_000 },
} as const;
const CHUNK = 2_000;

interface Meta {
  at: number;
  /** How long it took to compute. */
  took: number;
  ranks: string;
  /** The packed rows' width: a snapshot written by a build of the service with other rows is computed again. */
  rowBytes: number;
  /** The rows of the score-up and score-down runs (READ_SNAPSHOT reads them). */
  up: number;
  down: number;
}

type ReadScript = (...args: (string | number)[]) => Promise<Buffer | null>;

/**
 * Materialised listings of one (column, window) for what the live sets do not order: the rank metric (a rank
 * change moves whenever anyone else moves, so no per-account score can be kept in step), the top-N filters, and
 * every list of the windows that keep no live state (7d, 30d, 90d, 1y: see LIVE_WINDOWS). A snapshot computes
 * every mover's old and new rank once (ChangeSnapshotComputer) and stores its rows packed (28 bytes each) in score
 * order, and every other order as 4-byte positions into them, so a page is one script call at any offset.
 * Snapshots are computed on demand, at most one at a time per (column, window) across processes, and served as
 * FRESHNESS allows. Together they stay under `CHANGES_SNAPSHOT_BUDGET_MB`: past it, the least recently computed are
 * dropped (computed again on their next read).
 */
@Injectable()
export class ChangeSnapshots {
  private readonly computing = new Map<string, Promise<void>>();
  private readonly readScript: ReadScript;

  constructor(
    private readonly changes: BoardChanges,
    private readonly computer: ChangeSnapshotComputer,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    redis.defineCommand('badgeStatsChangesReadSnapshot', { numberOfKeys: 3, lua: READ_SNAPSHOT });
    const command = (redis as unknown as Record<string, ReadScript>).badgeStatsChangesReadSnapshotBuffer;
    this.readScript = command.bind(redis) as ReadScript;
  }

  private get keys(): ChangeKeys {
    return this.changes.keys;
  }

  /**
   * Rows `offset`… of a list, `limit` of them, keeping only those `accept` takes (then read a chunk at a time:
   * the top lists, where rows past the requested top N are skipped).
   */
  async read(
    version: string,
    board: BoardScope,
    window: ChangeWindow,
    list: SnapshotList,
    offset: number,
    limit: number,
    accept?: (row: ChangeRow) => boolean,
  ): Promise<ChangeRow[]> {
    await this.ensureFresh(version, board, window);
    if (!accept) return this.readRows(version, board, window, list, offset, limit);
    const rows: ChangeRow[] = [];
    let skip = offset;
    for (let at = 0; rows.length < limit; at += CHUNK) {
      const chunk = await this.readRows(version, board, window, list, at, CHUNK);
      for (const row of chunk.filter(accept)) {
        if (skip > 0) skip--;
        else if (rows.length < limit) rows.push(row);
      }
      if (chunk.length < CHUNK) break;
    }
    return rows;
  }

  /** A page of the stored snapshot; one that was dropped meanwhile (expired, evicted) is computed again, once. */
  private async readRows(
    version: string,
    board: BoardScope,
    window: ChangeWindow,
    list: SnapshotList,
    from: number,
    count: number,
    again = true,
  ): Promise<ChangeRow[]> {
    const key = (name: string) => this.keys.snapshot(version, board.column, window, name);
    const positions = list.startsWith('score-') ? key('rows') : key(list);
    const bytes = await this.readScript(key('meta'), key('rows'), positions, list, from, count, ROW_BYTES);
    if (bytes) return unpackRows(bytes);
    if (!again) throw new Error('a changes snapshot was dropped as soon as it was computed');
    await this.compute(version, board, window, 0);
    return this.readRows(version, board, window, list, from, count, false);
  }

  private async ensureFresh(version: string, board: BoardScope, window: ChangeWindow): Promise<void> {
    const metaKey = this.keys.snapshot(version, board.column, window, 'meta');
    const read = this.keys.snapshotIndex(version).read;
    // Read with the meta: when a snapshot window's snapshot was last asked for, so that the worker keeps it fresh
    // (ChangeSnapshotRefresher; the 24-hour window's rank lists are seconds old at most and computed by their readers).
    const multi = this.redis.multi().get(metaKey);
    if (!isLiveWindow(window)) multi.zadd(read, Date.now(), `${board.column}:${window}`).pexpire(read, TTL_MS);
    const [[, raw]] = (await multi.exec()) as [[unknown, string | null]];
    const meta = this.parseMeta(raw, board);
    const age = meta ? Date.now() - meta.at : Infinity;
    const { freshMs, staleMs } = FRESHNESS[isLiveWindow(window) ? 'live' : 'snapshot'];
    if (age <= Math.max(freshMs, 2 * (meta?.took ?? 0))) return;
    const next = this.compute(version, board, window, meta?.at ?? 0);
    if (age <= Math.max(staleMs, 5 * (meta?.took ?? 0))) {
      void next.catch(() => undefined);
      return;
    }
    await next;
  }

  /** The (column, window) pairs of the windows kept in snapshots only whose snapshot was read since `since` (forgetting the others). */
  async readSince(version: string, since: number): Promise<{ column: string; window: ChangeWindow }[]> {
    const read = this.keys.snapshotIndex(version).read;
    const [, [, names]] = (await this.redis.multi().zremrangebyscore(read, '-inf', `(${since}`).zrange(read, 0, -1).exec()) as [
      unknown,
      [unknown, string[]],
    ];
    return names.map((name) => ({ column: name.split(':')[0], window: name.split(':')[1] as ChangeWindow }));
  }

  /**
   * Computes a snapshot again once it is half as old as its readers accept (the worker calls this for the snapshots
   * read lately, so that they never have to wait for one). Only a snapshot still stored is: one the budget dropped (or
   * that expired) is computed by its next reader, so that the refreshing never does more than the budget holds.
   * Returns whether it computed.
   */
  async refreshAhead(version: string, board: BoardScope, window: ChangeWindow): Promise<boolean> {
    const meta = await this.meta(this.keys.snapshot(version, board.column, window, 'meta'), board);
    const { freshMs } = FRESHNESS[isLiveWindow(window) ? 'live' : 'snapshot'];
    if (!meta || Date.now() - meta.at < freshMs / 2) return false;
    await this.compute(version, board, window, meta.at);
    return true;
  }

  private async meta(key: string, board: BoardScope): Promise<Meta | null> {
    return this.parseMeta(await this.redis.get(key), board);
  }

  private parseMeta(raw: string | null, board: BoardScope): Meta | null {
    const meta = raw ? (JSON.parse(raw) as Meta) : null;
    // Ranks from another build of the rank engine are not comparable with the board being served.
    return meta && meta.ranks === board.version && meta.rowBytes === ROW_BYTES ? meta : null;
  }

  /** Computes a snapshot newer than `after` (one per process; across processes the lock holder does, the others wait). */
  private compute(version: string, board: BoardScope, window: ChangeWindow, after: number): Promise<void> {
    const name = `${version}:${board.column}:${window}`;
    let running = this.computing.get(name);
    if (!running) {
      running = this.lockedCompute(version, board, window, after).finally(() => this.computing.delete(name));
      this.computing.set(name, running);
    }
    return running;
  }

  private async lockedCompute(version: string, board: BoardScope, window: ChangeWindow, after: number): Promise<void> {
    const lock = this.keys.snapshotLock(version, board.column, window);
    const metaKey = this.keys.snapshot(version, board.column, window, 'meta');
    const deadline = Date.now() + 120_000;
    let token: string | null;
    while (!(token = await tryLock(this.redis, lock, 120_000))) {
      // Another process is computing: wait for its result.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const meta = await this.meta(metaKey, board);
      if (meta && meta.at > after) return;
      if (Date.now() > deadline) throw new Error('timed out waiting for a changes snapshot');
    }
    try {
      const meta = await this.meta(metaKey, board);
      if (meta && meta.at > after) return;
      const started = Date.now();
      const rows = await this.computer.compute(this.keys, version, board, window);
      await this.store(version, board, window, rows, started);
    } finally {
      await releaseLock(this.redis, lock, token);
    }
  }

  /**
   * Stores the rows in score order (the score-up run, the score-down run, the rest) and every other list as positions
   * into them, all in one transaction with the meta; then keeps the snapshots under their budget.
   */
  private async store(version: string, board: BoardScope, window: ChangeWindow, rows: ChangeRow[], started: number): Promise<void> {
    // Sorted and packed in slices, as they were computed (time-slices.ts): hundreds of thousands of rows at a million
    // accounts.
    const slices = new TimeSlices();
    const byScoreChange = byChange(scoreDelta);
    const up = await slices.sort(await slices.filter(rows, (row) => scoreDelta(row) > 0), byScoreChange);
    const down = await slices.sort(await slices.filter(rows, (row) => scoreDelta(row) < 0), byScoreChange);
    const ordered = up.concat(down, await slices.filter(rows, (row) => scoreDelta(row) === 0));
    // The other lists are positions into `ordered`, filtered and sorted as positions. byChange orders any two rows
    // (the account id breaks ties), so a top list is its full list filtered.
    const positions = await slices.map(ordered, (_, i) => i);
    const inTop = (i: number) => inTopAtEitherEnd(ordered[i], TOP);
    const byRank = byChange(rankDelta);
    const byRankChange = (i: number, j: number) => byRank(ordered[i], ordered[j]);
    const rankUp = await slices.sort(await slices.filter(positions, (i) => rankDelta(ordered[i]) > 0), byRankChange);
    const rankDown = await slices.sort(await slices.filter(positions, (i) => rankDelta(ordered[i]) < 0), byRankChange);
    const lists: Record<(typeof POSITION_LISTS)[number], number[]> = {
      'rank-up': rankUp,
      'rank-down': rankDown,
      'top-score-up': await slices.filter(positions.slice(0, up.length), inTop),
      'top-score-down': await slices.filter(positions.slice(up.length, up.length + down.length), inTop),
      'top-rank-up': await slices.filter(rankUp, inTop),
      'top-rank-down': await slices.filter(rankDown, inTop),
    };
    const key = (name: string) => this.keys.snapshot(version, board.column, window, name);
    const packed = await packRows(ordered, slices);
    const multi = this.redis.multi().set(key('rows'), packed, 'PX', TTL_MS);
    let bytes = packed.length;
    for (const list of POSITION_LISTS) {
      const value = await packPositions(lists[list], slices);
      multi.set(key(list), value, 'PX', TTL_MS);
      bytes += value.length;
    }
    // Stamped with the computation's start: its rows are at least that old.
    const meta: Meta = {
      at: started,
      took: Date.now() - started,
      ranks: board.version,
      rowBytes: ROW_BYTES,
      up: up.length,
      down: down.length,
    };
    multi.set(key('meta'), JSON.stringify(meta), 'PX', TTL_MS);
    const index = this.keys.snapshotIndex(version);
    const name = `${board.column}:${window}`;
    multi.zadd(index.computed, started, name).hset(index.bytes, name, bytes);
    multi.pexpire(index.computed, TTL_MS).pexpire(index.bytes, TTL_MS);
    await multi.exec();
    await this.evict(version, name);
  }

  /**
   * Drops the least recently computed snapshots (never `keep`, the one just stored) while all of them together hold
   * more than the budget. Two processes evicting at once at worst both drop the same one.
   */
  private async evict(version: string, keep: string): Promise<void> {
    const index = this.keys.snapshotIndex(version);
    const [[, names], [, sizes]] = (await this.redis.multi().zrange(index.computed, 0, -1).hgetall(index.bytes).exec()) as [
      [unknown, string[]],
      [unknown, Record<string, string>],
    ];
    let total = Object.values(sizes).reduce((sum, size) => sum + Number(size), 0);
    for (const name of names) {
      if (total <= this.config.changes.snapshotBudgetBytes) break;
      if (name === keep) continue;
      const [column, window] = name.split(':');
      const keys = ['meta', 'rows', ...POSITION_LISTS].map((list) => this.keys.snapshot(version, column, window as ChangeWindow, list));
      await this.redis
        .multi()
        .del(...keys)
        .zrem(index.computed, name)
        .hdel(index.bytes, name)
        .exec();
      total -= Number(sizes[name] ?? 0);
    }
  }
}
