/**
 * # Population histograms: level, friends, account age
 *
 * The analytics metrics the rank replica does not hold. Each is a small bounded integer (a level, a friend count, a
 * creation day), so per (metric, scope) a value → count histogram (ValueHistogram) answers the same exact statistics
 * as a ranked set, in memory proportional to the distinct values rather than the accounts. A projection of the change
 * feed like the rank replica (src/ranks/replica): loaded from every refreshed account's row in keyset batches, each
 * entry that may change a row's level, friends, creation time or location re-reads the row and moves its counts,
 * `ranks-rebuilt` reloads. Per account it keeps its cell and its three stored values (16 bytes + the id index), to
 * take the old counts out when the row changes. Account age is kept as the creation day (UTC days since 1970) and
 * read as today's day minus it, so the histograms do not change when a day passes; accounts without a known creation
 * time are not in the age metric's population.
 */
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { FeedEntry, accountsOf } from '../../change-feed/change-entry';
import { ChangeFeedFollower, Projection } from '../../change-feed/change-feed-follower';
import { IdIndex } from '../../common/collections/id-index';
import { JsonLogger } from '../../common/logging/json-logger';
import { RankRow, cellOfRow } from '../../ranks/rank-rows';
import { SCOPE_LEVELS, scopeKeysOf } from '../../ranks/rank-scopes';
import type { RankReplica } from '../../ranks/replica/rank-replica';
import type { PairWalk } from '../bivariate-tables';
import { HistogramScope, ValueHistogram } from './value-histogram';

/** The metrics kept here, by the column (or expression alias) they read; account_age stores the creation day. */
export const HISTOGRAM_METRICS = ['level', 'friends', 'account_age'] as const;
export type HistogramMetric = (typeof HISTOGRAM_METRICS)[number];
const AGE = 2;
/** No creation time known: not counted in the age metric. */
const NO_DAY = -1;
const DAY_MS = 86_400_000;
const BATCH = 5_000;

const ROWS_SQL = `SELECT a.account_id, a.region, a.country_code, a.country_name, a.state_name, a.city_name, a.level, a.friends,
  floor(extract(epoch FROM a.platform_created_at) / 86400)::int AS created_day FROM accounts a WHERE a.updated_at IS NOT NULL`;

type Row = RankRow & { level: number; friends: number; created_day: number | null };

/** The entries that may change a refreshed account's level, friends, creation time or location. */
const moves = (entry: FeedEntry) =>
  entry.kind === 'update-run' || entry.kind === 'rows-changed' || (entry.kind === 'settings' && entry.payload?.location === true);

/** The UTC day of a moment (days since 1970-01-01). */
export const utcDay = (ms: number) => Math.floor(ms / DAY_MS);

/** One axis of a bivariate pair: a histogram metric, or a rank replica column's index of `replica.columns`. */
export type PairAxis = { metric: HistogramMetric } | { replica: RankReplica; column: number };

class Histograms {
  readonly index = new IdIndex(1024);
  ids = new Int32Array(1024);
  cellOfSlot = new Int32Array(1024);
  /** Counts the placements (and donations, which move a replica column paired with these): tables are kept by it. */
  generation = 0;
  /** slot × metric: level, friends, creation day (NO_DAY: unknown). */
  stored = new Int32Array(1024 * HISTOGRAM_METRICS.length);
  readonly cellIds = new Map<string, number>();
  /** Per cell, the scope ids it counts in. */
  readonly cellScopes: number[][] = [];
  readonly scopeIds = new Map<string, number>();
  /** metric × scope id. */
  readonly histograms: ValueHistogram[][] = HISTOGRAM_METRICS.map(() => []);

  place(row: Row): void {
    const known = this.index.get(row.account_id);
    const slot = known < 0 ? this.index.add(row.account_id) : known;
    if (slot >= this.cellOfSlot.length) this.grow();
    this.ids[slot] = row.account_id;
    this.generation++;
    const m = HISTOGRAM_METRICS.length;
    if (known >= 0) this.count(slot, -1);
    this.cellOfSlot[slot] = this.cellId(cellOfRow(row));
    this.stored[slot * m] = Number(row.level);
    this.stored[slot * m + 1] = Number(row.friends);
    this.stored[slot * m + AGE] = row.created_day === null ? NO_DAY : Number(row.created_day);
    this.count(slot, 1);
  }

  histogram(metric: number, scopeKey: string): ValueHistogram | undefined {
    const scope = this.scopeIds.get(scopeKey);
    return scope === undefined ? undefined : this.histograms[metric][scope];
  }

  /** The account's stored values (creation day for age, NO_DAY unknown), or null when not held. */
  storedOf(accountId: number): number[] | null {
    const slot = this.index.get(accountId);
    if (slot < 0) return null;
    const m = HISTOGRAM_METRICS.length;
    return Array.from(this.stored.subarray(slot * m, slot * m + m));
  }

  /**
   * The accounts in slots [from, to) that live in the scope and have both values (account age: a known creation
   * time; a replica column: on the boards), each with X and Y (account age as of `today`).
   */
  walkPairs(
    scopeKey: string,
    x: PairAxis,
    y: PairAxis,
    today: number,
    from: number,
    to: number,
    visit: (x: number, y: number) => void,
  ): void {
    const scope = this.scopeIds.get(scopeKey);
    if (scope === undefined) return;
    const m = HISTOGRAM_METRICS.length;
    const valueOf = (axis: PairAxis, slot: number): number | null => {
      if ('replica' in axis) return axis.replica.scoreOf(this.ids[slot], axis.column);
      const metric = HISTOGRAM_METRICS.indexOf(axis.metric);
      const stored = this.stored[slot * m + metric];
      if (metric !== AGE) return stored;
      return stored === NO_DAY ? null : Math.max(0, today - stored);
    };
    const end = Math.min(to, this.index.size);
    for (let slot = from; slot < end; slot++) {
      if (!this.cellScopes[this.cellOfSlot[slot]].includes(scope)) continue;
      const [xValue, yValue] = [valueOf(x, slot), valueOf(y, slot)];
      if (xValue !== null && yValue !== null) visit(xValue, yValue);
    }
  }

  private count(slot: number, delta: number): void {
    const m = HISTOGRAM_METRICS.length;
    for (const scope of this.cellScopes[this.cellOfSlot[slot]]) {
      for (let metric = 0; metric < m; metric++) {
        const value = this.stored[slot * m + metric];
        if (metric === AGE && value === NO_DAY) continue;
        this.histograms[metric][scope].add(value, delta);
      }
    }
  }

  private cellId(cell: string): number {
    let id = this.cellIds.get(cell);
    if (id === undefined) {
      id = this.cellScopes.length;
      this.cellIds.set(cell, id);
      const keys = scopeKeysOf(cell);
      this.cellScopes.push(SCOPE_LEVELS.flatMap((level) => (keys[level] === undefined ? [] : [this.scopeId(keys[level])])));
    }
    return id;
  }

  private scopeId(key: string): number {
    let id = this.scopeIds.get(key);
    if (id === undefined) {
      id = this.scopeIds.size;
      this.scopeIds.set(key, id);
      for (const byScope of this.histograms) byScope.push(new ValueHistogram());
    }
    return id;
  }

  private grow(): void {
    const ids = new Int32Array(this.ids.length * 2);
    ids.set(this.ids);
    this.ids = ids;
    const cells = new Int32Array(this.cellOfSlot.length * 2);
    cells.set(this.cellOfSlot);
    this.cellOfSlot = cells;
    const stored = new Int32Array(this.stored.length * 2);
    stored.set(this.stored);
    this.stored = stored;
  }
}

@Injectable()
export class PopulationHistograms implements OnApplicationBootstrap, Projection {
  readonly name = 'population-histograms';
  private readonly logger = new JsonLogger('PopulationHistograms');
  private state: Histograms | null = null;
  private live = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly adapterHost: HttpAdapterHost,
    private readonly feed: ChangeFeedFollower,
  ) {}

  onApplicationBootstrap(): void {
    // Only a process serving HTTP answers the analytics reads.
    if (this.adapterHost.httpAdapter) this.feed.attach(this);
  }

  get serving(): boolean {
    return this.live;
  }

  /** A metric's values in one scope key (an empty scope when nobody there is counted); undefined while not live. */
  scope(metric: HistogramMetric, scopeKey: string, now = Date.now()): HistogramScope | undefined {
    if (!this.live) return undefined;
    const m = HISTOGRAM_METRICS.indexOf(metric);
    const histogram = this.state!.histogram(m, scopeKey) ?? EMPTY;
    if (m !== AGE) return histogram.view(0, (value) => value, true);
    const today = utcDay(now);
    return histogram.view(today, (day) => today - day, false);
  }

  /** An account's value of a metric, null when it is not counted (not refreshed; age: creation time unknown). */
  valueOf(metric: HistogramMetric, accountId: number, now = Date.now()): number | null | undefined {
    if (!this.live) return undefined;
    const stored = this.state!.storedOf(accountId);
    const m = HISTOGRAM_METRICS.indexOf(metric);
    if (!stored || (m === AGE && stored[m] === NO_DAY)) return null;
    return m === AGE ? Math.max(0, utcDay(now) - stored[m]) : stored[m];
  }

  /**
   * A bivariate table's accounts (PairWalk) over this state, and the state as the table's source (its generation);
   * undefined while not live.
   */
  pairs(scopeKey: string, x: PairAxis, y: PairAxis, now = Date.now()): { source: { generation: number }; walk: PairWalk } | undefined {
    if (!this.live) return undefined;
    const state = this.state!;
    const today = utcDay(now);
    return {
      source: state,
      walk: { held: state.index.size, walk: (from, to, visit) => state.walkPairs(scopeKey, x, y, today, from, to, visit) },
    };
  }

  setLive(live: boolean): void {
    this.live = live;
    if (!live) this.state = null;
  }

  async load(): Promise<void> {
    const started = Date.now();
    const state = new Histograms();
    let after = -1;
    for (;;) {
      const rows: Row[] = await this.dataSource.query(`${ROWS_SQL} AND a.account_id > $1 ORDER BY a.account_id LIMIT ${BATCH}`, [after]);
      if (!rows.length) break;
      for (const row of rows) state.place(row);
      after = rows[rows.length - 1].account_id;
    }
    this.state = state;
    this.logger.log({
      msg: 'population histograms loaded',
      accounts: state.index.size,
      scopes: state.scopeIds.size,
      ms: Date.now() - started,
    });
  }

  async apply(entries: readonly FeedEntry[]): Promise<void | 'reload'> {
    if (entries.some((entry) => entry.kind === 'ranks-rebuilt')) return 'reload';
    // A donation moves the donations column, which a bivariate table may pair with these.
    if (this.state && entries.some((entry) => entry.kind === 'donation')) this.state.generation++;
    const accountIds = accountsOf(entries, moves);
    if (!accountIds.length || !this.state) return;
    const rows: Row[] = await this.dataSource.query(`${ROWS_SQL} AND a.account_id = ANY($1)`, [accountIds]);
    for (const row of rows) this.state.place(row);
  }
}

const EMPTY = new ValueHistogram();
