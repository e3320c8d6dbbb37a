import { Inject, Injectable, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { JsonLogger } from '../common/logging/json-logger';
import { execOrThrow, unlinkMatching } from '../common/redis/redis-batch';
import { REDIS } from '../common/redis/redis.module';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { ChangeFeed } from '../change-feed/change-feed';
import { DerivedState, DerivedStateKeeper } from '../derived/derived-state';
import { VersionedRedisState } from '../derived/versioned-redis-state';
import { RankKeys } from './rank-keys';
import { PLACE_ACCOUNT_LUA } from './place-account.lua';
import { readRankTable, writeRankTable } from './rank-build';
import { RANKED_COLUMNS, SCOPE_LEVELS, memberOf } from './rank-scopes';
import { RANK_ROWS_SQL, RankRow, cellOfRow, countryEntryOf } from './rank-rows';

const PLACE_ACCOUNT = 'badgeStatsPlaceAccount';
/** Queues the place-account script (defined on the engine's connection) on one of its pipelines. */
const placeAccount = (pipeline: ReturnType<Redis['pipeline']>, ...args: string[]): void =>
  void (pipeline as unknown as Record<string, (...args: string[]) => unknown>)[PLACE_ACCOUNT](...args);

/**
 * What a build derives from the rows, numbered (VersionedRedisState's format): a served version built to an older one
 * is rebuilt in place by the first process of a release to boot. 2: the accounts' regions, filled by the
 * FillAccountRegions migration (before it every region was blank, so the region boards were empty).
 */
export const RANK_BUILD_FORMAT = 2;

/** Accounts refreshed this close to a rebuild's start are placed again after it, in case the build read them stale. */
const REBUILD_OVERLAP_MS = 10_000;

/**
 * The rank engine's writer side. Keeps one Redis sorted set per (board column, scope) holding every refreshed
 * account with a non-zero score, plus per-scope populations, so ranks, windows and board sizes are O(log N).
 * `place` runs after each committed update; `rebuild` recomputes everything from PostgreSQL (first boot, after a
 * Redis flush, after a bulk seed or a restore): into a fresh version when none is served, else over the served one a
 * board group at a time, so Redis never holds the boards twice (rank-build.ts). See docs/architecture.md, "The rank
 * engine".
 */
@Injectable()
@DerivedState('ranks')
export class RankEngine implements DerivedStateKeeper, OnApplicationBootstrap, OnModuleInit {
  private readonly logger = new JsonLogger('RankEngine');
  readonly keys: RankKeys;
  private readonly state: VersionedRedisState;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly feed: ChangeFeed,
  ) {
    this.keys = new RankKeys(config);
    this.state = new VersionedRedisState(redis, this.keys, () => this.build(), RANK_BUILD_FORMAT);
    // defineCommand runs the script by EVALSHA, loading it once per connection; pipelines of `redis` have it too.
    redis.defineCommand(PLACE_ACCOUNT, { numberOfKeys: 1, lua: PLACE_ACCOUNT_LUA });
  }

  /** Starts the boot-time build now, so that it overlaps the other keepers' (see VersionedRedisState.startBootstrap). */
  onModuleInit(): void {
    this.state.startBootstrap();
  }

  /** The first process to start on an empty Redis builds the ranks before serving; the others find them built. */
  onApplicationBootstrap(): Promise<void> {
    return this.state.bootstrap();
  }

  /** Starts (or joins) a rebuild when no version exists; resolves when that rebuild is done (or another has it). */
  ensureBuilt(): Promise<void> {
    return this.state.ensureBuilt();
  }

  /** Starts a build in the background when no version exists; a failure is logged (VersionedRedisState.startBuild). */
  startBuild(): void {
    this.state.startBuild();
  }

  /** The in-place rebuild of a version built to an older RANK_BUILD_FORMAT, while this process runs one (tests). */
  get upgrading(): Promise<void> | null {
    return this.state.upgrading;
  }

  /** Rebuilds from PostgreSQL even when a version exists (operators, the seed), after any build under way. */
  rebuild(): Promise<void> {
    return this.state.rebuild();
  }

  /**
   * Puts accounts where their stored row says they belong (after a committed update). Only the version being
   * served is written: a build that read an account before its update places it again (after each column it switched,
   * and at its end). The replicas follow the committed rows through the change feed, not this.
   */
  async place(accountIds: number[]): Promise<void> {
    if (!accountIds.length) return;
    const rows: RankRow[] = await this.dataSource.query(`${RANK_ROWS_SQL} AND a.account_id = ANY($1)`, [accountIds]);
    if (!rows.length) return;
    // One script per account, each atomic (place-account.lua.ts); without a version served it changes nothing.
    const pipeline = this.redis.pipeline();
    for (const row of rows) {
      const country = countryEntryOf(row) ?? ['', ''];
      const scores = RANKED_COLUMNS.map((column) => String(Number(row[column])));
      const args = [this.keys.versionPrefix, String(row.account_id), memberOf(row.account_id), cellOfRow(row), ...country];
      placeAccount(pipeline, this.keys.version, ...args, ...RANKED_COLUMNS, ...scores);
    }
    await execOrThrow(pipeline);
  }

  /**
   * Fills the boards from PostgreSQL (rank-build.ts): into a fresh version that is then served when none is, or
   * group by group over the version being served. Either way, the accounts refreshed while it read are placed again.
   */
  private async build(): Promise<void> {
    const started = Date.now();
    const served = await this.state.current();
    const fresh = await this.state.nextVersion();
    // Per-app and per-badge boards were read from rows the build may find changed (a restore): dropped first, which
    // also makes room for the build's staged group, and built again on their next read from the rows as they are.
    if (served) await unlinkMatching(this.redis, `${this.keys.lazy(served)}:*`);
    const table = await readRankTable(this.dataSource);
    const readMs = Date.now() - started;
    let entries = 0;
    await writeRankTable(this.redis, this.keys, table, { fresh, served }, async (group) => {
      entries += group.entries;
      // Over a served version, each column's boards now hold what was read: correct those refreshed since, so that
      // an update is not missing from a switched board for the rest of the build.
      if (served && group.level === SCOPE_LEVELS[SCOPE_LEVELS.length - 1]) await this.place(await this.refreshedSince(started));
    });
    if (!served) await this.state.serve(fresh);
    await this.place(await this.refreshedSince(started));
    const version = served ?? fresh;
    await this.state.dropAllBut(version);
    // A build follows rows written behind the engine's back (a seed, a restore): the replicas read them all again.
    await this.feed.record(this.dataSource.manager, { kind: 'ranks-rebuilt' });
    await this.feed.nudge();
    this.logger.log({
      msg: 'ranks rebuilt',
      version,
      inPlace: served !== null,
      accounts: table.size,
      entries,
      readMs,
      durationMs: Date.now() - started,
    });
  }

  /** Accounts refreshed since shortly before `started`: a build may have read their row before their update. */
  private async refreshedSince(started: number): Promise<number[]> {
    const rows: { account_id: number }[] = await this.dataSource.query('SELECT account_id FROM accounts WHERE updated_at >= $1', [
      new Date(started - REBUILD_OVERLAP_MS),
    ]);
    return rows.map((row) => row.account_id);
  }
}
