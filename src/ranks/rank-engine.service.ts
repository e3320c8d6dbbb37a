import { Inject, Injectable, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { JsonLogger } from '../common/logging/json-logger';
import { REDIS } from '../common/redis/redis.module';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { DerivedState, DerivedStateKeeper } from '../derived/derived-state';
import { BuildKind, VersionedRedisState } from '../derived/versioned-redis-state';
import { RankKeys } from './rank-keys';
import { layOutLargeSets } from './rank-order-layout';
import { RANKED_COLUMNS, memberOf, scopeKeysOf } from './rank-scopes';
import { RankReplicaMessage } from './replica/rank-replica-message';
import { RANK_ROWS_SQL, RankRow, cellOfRow, placedAccountOf, readRankRows } from './rank-rows';

/** Accounts refreshed this close to a rebuild's start are placed again after it, in case the build read them stale. */
const REBUILD_OVERLAP_MS = 10_000;

/**
 * The rank engine's writer side. Keeps one Redis sorted set per (board column, scope) holding every refreshed
 * account with a non-zero score, plus per-scope populations, so ranks, windows and board sizes are O(log N).
 * `place` runs after each committed update; `rebuild` recomputes everything from PostgreSQL into a fresh version
 * (first boot, after a Redis flush, after a bulk seed). See docs/architecture.md, "The rank engine".
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
  ) {
    this.keys = new RankKeys(config);
    this.state = new VersionedRedisState(redis, this.keys, (kind) => this.build(kind));
  }

  /** The first process to start on an empty Redis builds the ranks before serving; the others find them built. */
  /** Starts the boot-time build now, so that it overlaps the other keepers' (see VersionedRedisState.startBootstrap). */
  onModuleInit(): void {
    this.state.startBootstrap();
  }

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

  /** Rebuilds from PostgreSQL even when a version exists (operators, the seed), after any build under way. */
  rebuild(): Promise<void> {
    return this.state.rebuild();
  }

  /**
   * Puts accounts where their stored row says they belong (after a committed update). Only the version being
   * served is written: a rebuild in progress places everything refreshed since it started once it switches. The
   * replicas hear of it even when no version is served (Redis flushed): they keep serving meanwhile.
   */
  async place(accountIds: number[]): Promise<void> {
    if (!accountIds.length) return;
    const version = await this.redis.get(this.keys.version);
    const rows: RankRow[] = await this.dataSource.query(`${RANK_ROWS_SQL} AND a.account_id = ANY($1)`, [accountIds]);
    if (!rows.length) return;
    if (version) {
      const previous = await this.redis.hmget(this.keys.placement(version), ...rows.map((row) => String(row.account_id)));
      const pipeline = this.redis.pipeline();
      rows.forEach((row, i) => this.placeOne(pipeline, version, row, previous[i]));
      await pipeline.exec();
    }
    // After the sets: the replicas (RankReplicaService) hear an account's new place once the engine serves it.
    await this.redis.publish(this.keys.placed, JSON.stringify({ placed: rows.map(placedAccountOf) } satisfies RankReplicaMessage));
  }

  private placeOne(pipeline: ReturnType<Redis['pipeline']>, version: string, row: RankRow, previousCell: string | null): void {
    const cell = cellOfRow(row);
    const member = memberOf(row.account_id);
    const scopes = Object.values(scopeKeysOf(cell));
    if (previousCell !== cell) {
      const left = previousCell === null ? [] : Object.values(scopeKeysOf(previousCell)).filter((s) => !scopes.includes(s));
      const joined = previousCell === null ? scopes : scopes.filter((s) => !Object.values(scopeKeysOf(previousCell)).includes(s));
      for (const scope of left) {
        pipeline.hincrby(this.keys.population(version), scope, -1);
        for (const column of RANKED_COLUMNS) pipeline.zrem(this.keys.board(version, column, scope), member);
      }
      for (const scope of joined) pipeline.hincrby(this.keys.population(version), scope, 1);
      if (previousCell !== null) pipeline.hincrby(this.keys.cells(version), previousCell, -1);
      pipeline.hincrby(this.keys.cells(version), cell, 1);
      pipeline.hset(this.keys.placement(version), String(row.account_id), cell);
      if (row.country_name && row.country_code)
        pipeline.hset(this.keys.countries(version), String(row.country_name).toLowerCase(), String(row.country_code));
    }
    for (const column of RANKED_COLUMNS) {
      const score = Number(row[column]);
      for (const scope of scopes) {
        const key = this.keys.board(version, column, scope);
        if (score > 0) pipeline.zadd(key, score, member);
        else pipeline.zrem(key, member);
      }
    }
  }

  /** Fills a fresh version from PostgreSQL in keyset batches, switches readers to it, and drops the old one. */
  private async build(kind: BuildKind): Promise<void> {
    const started = Date.now();
    const version = await this.state.nextVersion();
    const sizes = new Map<string, number>();
    const accounts = await readRankRows(this.dataSource, (rows) => this.loadBatch(version, rows, sizes));
    // Before the switch: nobody reads or writes this version yet (rank-order-layout.ts). Not when the build is what
    // rank reads wait for (503 until the switch): the layout would lengthen that by ~35 s at a million accounts.
    const laidOut = kind === 'rebuild' ? await layOutLargeSets(this.redis, sizes) : 0;
    const recent: { account_id: number }[] = await this.dataSource.query('SELECT account_id FROM accounts WHERE updated_at >= $1', [
      new Date(started - REBUILD_OVERLAP_MS),
    ]);
    await this.state.serve(version);
    await this.place(recent.map((row) => row.account_id));
    await this.state.dropAllBut(version);
    // A build follows rows written behind the engine's back (a seed, a restore): the replicas read them all again.
    await this.redis.publish(this.keys.placed, JSON.stringify({ reload: true } satisfies RankReplicaMessage));
    this.logger.log({ msg: 'ranks rebuilt', version, accounts, laidOut, durationMs: Date.now() - started });
  }

  /**
   * One batch of a build: one ZADD per (board, scope) with all of the batch's members, counters summed first. `sizes`
   * counts the members added per set, across batches.
   */
  private async loadBatch(version: string, rows: RankRow[], sizes: Map<string, number>): Promise<void> {
    const sets = new Map<string, (string | number)[]>();
    const population = new Map<string, number>();
    const cells = new Map<string, number>();
    const placement: string[] = [];
    const countries = new Map<string, string>();
    for (const row of rows) {
      if (row.country_name && row.country_code) countries.set(String(row.country_name).toLowerCase(), String(row.country_code));
      const cell = cellOfRow(row);
      const scopes = Object.values(scopeKeysOf(cell));
      for (const scope of scopes) population.set(scope, (population.get(scope) ?? 0) + 1);
      cells.set(cell, (cells.get(cell) ?? 0) + 1);
      placement.push(String(row.account_id), cell);
      const member = memberOf(row.account_id);
      for (const column of RANKED_COLUMNS) {
        const score = Number(row[column]);
        if (score <= 0) continue;
        for (const scope of scopes) {
          const key = this.keys.board(version, column, scope);
          let args = sets.get(key);
          if (!args) sets.set(key, (args = []));
          args.push(score, member);
        }
      }
    }
    const pipeline = this.redis.pipeline();
    for (const [key, args] of sets) {
      pipeline.zadd(key, ...args);
      sizes.set(key, (sizes.get(key) ?? 0) + args.length / 2);
    }
    for (const [scope, n] of population) pipeline.hincrby(this.keys.population(version), scope, n);
    for (const [cell, n] of cells) pipeline.hincrby(this.keys.cells(version), cell, n);
    pipeline.hset(this.keys.placement(version), ...placement);
    if (countries.size) pipeline.hset(this.keys.countries(version), ...[...countries].flat());
    await pipeline.exec();
  }
}
