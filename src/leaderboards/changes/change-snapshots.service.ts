import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { REDIS } from '../../common/redis/redis.module';
import { BoardScope } from '../../ranks/rank-reader.service';
import { accountOf, memberOf } from '../../ranks/rank-scopes';
import { BoardChanges } from './board-changes.service';
import { ChangeKeys, ChangeWindow, WINDOW_DAYS } from './change-keys';
import { ChangeRow, ROW_BYTES, byChange, packRows, rankDelta, scoreDelta, unpackRows } from './change-rows';
import { BEATS_MANY } from './change-scripts';

/** The lists a snapshot holds: every mover by rank change, and the movers of the top 1000 at either end by each change. */
export const SNAPSHOT_LISTS = ['rank-up', 'rank-down', 'top-score-up', 'top-score-down', 'top-rank-up', 'top-rank-down'] as const;
export type SnapshotList = (typeof SNAPSHOT_LISTS)[number];

/** The largest `topFilter`. */
const TOP = 1000;
/**
 * A snapshot younger than this (or than twice its own computation, on a large board: computing snapshots back to back
 * would keep a core busy) is served as it is.
 */
export const FRESH_MS = 2_000;
/** An older one, up to this age (or five computations), is served while a fresh one is computed; beyond, requests wait. */
export const STALE_MS = 10_000;
/** Snapshots nobody asks for expire. */
const TTL_MS = 10 * 60_000;
const CHUNK = 2_000;

interface Meta {
  at: number;
  /** How long it took to compute. */
  took: number;
  ranks: string;
  /** The packed rows' width: a snapshot written by a build of the service with other rows is computed again. */
  rowBytes: number;
}

/**
 * Materialised listings of one (column, window) for what the maintained sets cannot order: the rank metric (a rank
 * change moves whenever anyone else moves, so no per-account score can be kept in step) and the top-N filters.
 * A snapshot computes every mover's old and new rank once — O(movers · log N) Redis reads — and stores each list as
 * packed rows, so a page is one GETRANGE at any offset. Snapshots are computed on demand, at most one at a time per
 * (column, window) across processes, and served for FRESH_MS (up to STALE_MS while the next one is computed): the
 * rank metric and top-N pages are at most a few seconds old.
 */
@Injectable()
export class ChangeSnapshots {
  private readonly computing = new Map<string, Promise<void>>();

  constructor(
    private readonly changes: BoardChanges,
    @Inject(REDIS) private readonly redis: Redis,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

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
    const key = this.keys.snapshot(version, board.column, window, list);
    if (!accept) return unpackRows(await this.redis.getrangeBuffer(key, offset * ROW_BYTES, (offset + limit) * ROW_BYTES - 1));
    const rows: ChangeRow[] = [];
    let skip = offset;
    for (let at = 0; rows.length < limit; at += CHUNK) {
      const chunk = unpackRows(await this.redis.getrangeBuffer(key, at * ROW_BYTES, (at + CHUNK) * ROW_BYTES - 1));
      for (const row of chunk.filter(accept)) {
        if (skip > 0) skip--;
        else if (rows.length < limit) rows.push(row);
      }
      if (chunk.length < CHUNK) break;
    }
    return rows;
  }

  private async ensureFresh(version: string, board: BoardScope, window: ChangeWindow): Promise<void> {
    const metaKey = this.keys.snapshot(version, board.column, window, 'meta');
    const meta = await this.meta(metaKey, board);
    const age = meta ? Date.now() - meta.at : Infinity;
    if (age <= Math.max(FRESH_MS, 2 * (meta?.took ?? 0))) return;
    const next = this.compute(version, board, window, meta?.at ?? 0);
    if (age <= Math.max(STALE_MS, 5 * (meta?.took ?? 0))) {
      void next.catch(() => undefined);
      return;
    }
    await next;
  }

  private async meta(key: string, board: BoardScope): Promise<Meta | null> {
    const raw = await this.redis.get(key);
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
    const token = `${process.pid}:${randomUUID()}`;
    const deadline = Date.now() + 120_000;
    while (!(await this.redis.set(lock, token, 'PX', 120_000, 'NX'))) {
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
      const rows = await this.snapshot(version, board, window);
      await this.store(version, board, window, rows, started);
    } finally {
      await this.redis.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", 1, lock, token);
    }
  }

  private async store(version: string, board: BoardScope, window: ChangeWindow, rows: ChangeRow[], started: number): Promise<void> {
    const inTop = (row: ChangeRow) => Math.min(row.oldRank, row.newRank) <= TOP;
    const lists: Record<SnapshotList, ChangeRow[]> = {
      'rank-up': rows.filter((row) => rankDelta(row) > 0).sort(byChange(rankDelta)),
      'rank-down': rows.filter((row) => rankDelta(row) < 0).sort(byChange(rankDelta)),
      'top-score-up': rows.filter((row) => inTop(row) && scoreDelta(row) > 0).sort(byChange(scoreDelta)),
      'top-score-down': rows.filter((row) => inTop(row) && scoreDelta(row) < 0).sort(byChange(scoreDelta)),
      'top-rank-up': rows.filter((row) => inTop(row) && rankDelta(row) > 0).sort(byChange(rankDelta)),
      'top-rank-down': rows.filter((row) => inTop(row) && rankDelta(row) < 0).sort(byChange(rankDelta)),
    };
    const multi = this.redis.multi();
    for (const list of SNAPSHOT_LISTS)
      multi.set(this.keys.snapshot(version, board.column, window, list), packRows(lists[list]), 'PX', TTL_MS);
    // Stamped with the computation's start: its rows are at least that old.
    const meta: Meta = { at: started, took: Date.now() - started, ranks: board.version, rowBytes: ROW_BYTES };
    multi.set(this.keys.snapshot(version, board.column, window, 'meta'), JSON.stringify(meta), 'PX', TTL_MS);
    await multi.exec();
  }

  /**
   * Every visible mover's ranks at both ends of the window, by the arithmetic of LIVE_ROWS (change-scripts.ts) done
   * in bulk: the counts among the changed movers come from sorted arrays here, the counts over the whole board from
   * the rank engine.
   */
  private async snapshot(version: string, board: BoardScope, window: ChangeWindow): Promise<ChangeRow[]> {
    const members = (await this.movers(window)).map(memberOf);
    const [curKey, oldKey] = [this.keys.set(version, window, board.column, 'cur'), this.keys.set(version, window, board.column, 'old')];
    const movers: { member: string; cur: number; old: number; changed: boolean }[] = [];
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
    const scored = await this.redis.zcard(board.key);
    const changedCur = sortedKeys(movers.filter((m) => m.changed && m.cur > 0).map((m) => [m.cur, m.member]));
    const changedOld = sortedKeys(movers.filter((m) => m.changed && m.old > 0).map((m) => [m.old, m.member]));
    const newAhead = await this.beats(
      board.key,
      movers.filter((m) => m.cur > 0).map((m) => [m.cur, m.member]),
    );
    const oldAhead = await this.beats(
      board.key,
      movers.filter((m) => m.changed && m.old > 0).map((m) => [m.old, m.member]),
    );
    const hidden = await this.hidden();
    const rows: ChangeRow[] = [];
    for (const m of movers) {
      const accountId = accountOf(m.member);
      if (hidden.has(accountId)) continue;
      const newRank = m.cur > 0 ? newAhead.get(m.member)! + 1 : scored + 1;
      let oldRank: number;
      if (m.old <= 0) oldRank = 1 + scored - changedCur.length + changedOld.length;
      else {
        const ahead = m.changed ? oldAhead.get(m.member)! : newRank - 1;
        oldRank = 1 + ahead - countAhead(changedCur, m.old, m.member) + countAhead(changedOld, m.old, m.member);
      }
      rows.push({ accountId, oldRank, newRank, oldScore: m.old, newScore: m.cur });
    }
    return rows;
  }

  /**
   * Every mover of a window: its latest completed run (which stamps `accounts.updated_at`) is in the window and was
   * not its first. ix_accounts_updated_at finds the accounts, one probe of ix_account_updates_account_completed each
   * the earlier run; at a million accounts a 30-day window holds most of them (a few seconds), which is why this is
   * read here, once per snapshot, and not kept in Redis beside every placement.
   */
  private async movers(window: ChangeWindow): Promise<number[]> {
    const rows: { account_id: number }[] = await this.dataSource.query(
      `SELECT a.account_id FROM accounts a
        WHERE a.updated_at >= now() - make_interval(days => $1)
          AND EXISTS (SELECT 1 FROM account_updates p
                       WHERE p.account_id = a.account_id AND p.status = 'completed' AND p.finished_at < a.updated_at)`,
      [WINDOW_DAYS[window]],
    );
    return rows.map((row) => row.account_id);
  }

  /** How many entries of `key` rank ahead of each (score, member), by member. */
  private async beats(key: string, pairs: [number, string][]): Promise<Map<string, number>> {
    const ahead = new Map<string, number>();
    for (let i = 0; i < pairs.length; i += CHUNK / 2) {
      const chunk = pairs.slice(i, i + CHUNK / 2);
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

/** (score, member) pairs in board order: higher score first, then the greater member (the lower account id). */
function sortedKeys(pairs: [number, string][]): [number, string][] {
  return pairs.sort(([sa, ma], [sb, mb]) => sb - sa || (ma < mb ? 1 : ma > mb ? -1 : 0));
}

/** How many pairs of a board-ordered array rank ahead of (score, member) (binary search). */
function countAhead(sorted: [number, string][], score: number, member: string): number {
  let [lo, hi] = [0, sorted.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const [s, m] = sorted[mid];
    if (s > score || (s === score && m > member)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
