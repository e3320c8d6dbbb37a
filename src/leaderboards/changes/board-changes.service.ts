import { Inject, Injectable, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { JsonLogger } from '../../common/logging/json-logger';
import { REDIS } from '../../common/redis/redis.module';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { DerivedState, DerivedStateKeeper } from '../../derived/derived-state';
import { VersionedRedisState } from '../../derived/versioned-redis-state';
import { memberOf } from '../../ranks/rank-scopes';
import { CHANGE_COLUMNS, ChangeKeys, LIVE_WINDOWS, MAX_LIVE_DAYS, SET_KINDS } from './change-keys';
import { Placement, readPlacements } from './change-placement';
import { PLACE } from './change-scripts';

const BATCH = 2_000;
/** Accounts refreshed this close to a build's start are placed again after it, in case the build read them stale. */
const REBUILD_OVERLAP_MS = 10_000;

/**
 * The movers of every live (window, column) of `leaderboard.getChanges` (24h, see LIVE_WINDOWS), in Redis
 * sorted sets (see ChangeKeys), so a page costs a few O(log N) reads however many accounts moved. Kept in step by the update writer (`place` after
 * each committed refresh), by the worker's ChangeSweeper (runs leaving a window as time passes, and any placement
 * a crash lost), and rebuilt from PostgreSQL into a fresh version (first boot, a Redis flush, a seed).
 */
@Injectable()
@DerivedState('board-changes')
export class BoardChanges implements DerivedStateKeeper, OnApplicationBootstrap, OnModuleInit {
  private readonly logger = new JsonLogger('BoardChanges');
  readonly keys: ChangeKeys;
  private readonly state: VersionedRedisState;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.keys = new ChangeKeys(config);
    this.state = new VersionedRedisState(redis, this.keys, () => this.build());
  }

  /** Starts the boot-time build now, so that it overlaps the other keepers' (see VersionedRedisState.startBootstrap). */
  onModuleInit(): void {
    this.state.startBootstrap();
  }

  /** The first process to start on an empty Redis builds the state; the others find it built. */
  onApplicationBootstrap(): Promise<void> {
    return this.state.bootstrap();
  }

  /** The version being served, or null while none exists (then a build is started). */
  async currentVersion(): Promise<string | null> {
    const version = await this.state.current();
    if (!version) this.state.startBuild();
    return version;
  }

  ensureBuilt(): Promise<void> {
    return this.state.ensureBuilt();
  }

  rebuild(): Promise<void> {
    return this.state.rebuild();
  }

  /**
   * Re-places accounts where their committed rows put them now. Only the version being served is written: a build
   * under way places everything refreshed since it started once it switches.
   */
  async place(accountIds: number[]): Promise<void> {
    const version = await this.redis.get(this.keys.version);
    if (!version || !accountIds.length) return;
    for (let i = 0; i < accountIds.length; i += BATCH) {
      const { stamp, placements } = await readPlacements(this.dataSource, accountIds.slice(i, i + BATCH));
      const placed = new Set(placements.map((p) => p.accountId));
      // Accounts with no refreshed row (deleted, never refreshed) leave every set.
      const gone = accountIds.slice(i, i + BATCH).filter((id) => !placed.has(id));
      const pipeline = this.redis.pipeline();
      for (const placement of [...placements, ...gone.map(unplaced)]) pipeline.eval(...this.placeArgs(version, stamp, placement));
      await pipeline.exec();
    }
  }

  private placeArgs(version: string, stamp: number, p: Placement): [string, number, ...(string | number)[]] {
    const keys = [this.keys.stamp(version, p.accountId), ...this.keys.placementKeys(version)];
    const args: (string | number)[] = [memberOf(p.accountId), stamp, p.hidden ? 0 : 1, LIVE_WINDOWS.length, CHANGE_COLUMNS.length];
    for (const window of LIVE_WINDOWS) {
      const at = p.windows[window];
      args.push(at ? 1 : 0);
      for (const { column } of CHANGE_COLUMNS) args.push(p.cur[column], at ? at.old[column] : p.cur[column]);
    }
    return [PLACE, keys.length, ...keys, ...args];
  }

  /**
   * Fills a fresh version from PostgreSQL, a batch of refreshed accounts at a time (only accounts with a run in the
   * longest live window can be movers), switches readers to it and drops the old one.
   */
  private async build(): Promise<void> {
    const started = Date.now();
    const version = await this.state.nextVersion();
    const [{ since }]: { since: Date }[] = await this.dataSource.query(`SELECT now() AS since`);
    let after = -1;
    let movers = 0;
    for (;;) {
      const rows: { account_id: number }[] = await this.dataSource.query(
        `SELECT DISTINCT account_id FROM account_updates
          WHERE status = 'completed' AND finished_at >= now() - interval '${MAX_LIVE_DAYS} days' AND account_id > $1
          ORDER BY account_id LIMIT ${BATCH}`,
        [after],
      );
      if (!rows.length) break;
      const { placements } = await readPlacements(
        this.dataSource,
        rows.map((row) => row.account_id),
      );
      movers += await this.load(version, placements);
      after = rows[rows.length - 1].account_id;
    }
    const recent: { account_id: number }[] = await this.dataSource.query(
      `SELECT DISTINCT account_id FROM account_updates WHERE status = 'completed' AND finished_at >= $1`,
      [new Date(since.getTime() - REBUILD_OVERLAP_MS)],
    );
    // The sweeper applies window edges from the build's start on; earlier ones the build saw.
    await this.redis.set(this.keys.swept(version), since.getTime());
    await this.state.serve(version);
    await this.place(recent.map((row) => row.account_id));
    await this.state.dropAllBut(version);
    this.logger.log({ msg: 'board changes rebuilt', version, movers, durationMs: Date.now() - started });
  }

  /**
   * One batch of a build into the fresh version: one ZADD per set with all of the batch's members. No placement
   * stamps are written: nothing places into a version before it is served, and a placement that reads the served
   * version reads its rows after every read of the build (place() reads the version first), so it is newer anyway.
   */
  private async load(version: string, placements: Placement[]): Promise<number> {
    const adds = new Map<string, (string | number)[]>();
    const add = (key: string, score: number, member: string) => {
      let args = adds.get(key);
      if (!args) adds.set(key, (args = []));
      args.push(score, member);
    };
    const sets = Object.fromEntries(
      LIVE_WINDOWS.map((window) => [
        window,
        {
          columns: Object.fromEntries(
            CHANGE_COLUMNS.map(({ column }) => [
              column,
              Object.fromEntries(SET_KINDS.map((kind) => [kind, this.keys.set(version, window, column, kind)])),
            ]),
          ),
        },
      ]),
    );
    const pipeline = this.redis.pipeline();
    let movers = 0;
    for (const p of placements) {
      const member = memberOf(p.accountId);
      for (const window of LIVE_WINDOWS) {
        const at = p.windows[window];
        if (!at) continue;
        movers++;
        for (const { column } of CHANGE_COLUMNS) {
          const [now, before] = [p.cur[column], at.old[column]];
          if (now === before) continue;
          const keys = sets[window].columns[column];
          if (!p.hidden) add(now > before ? keys.up : keys.down, Math.abs(now - before), member);
          if (now > 0) add(keys.cur, now, member);
          if (before > 0) add(keys.old, before, member);
        }
      }
    }
    for (const [key, args] of adds) pipeline.zadd(key, ...args);
    await pipeline.exec();
    return movers;
  }
}

/** An account that is nowhere: every window empty. */
function unplaced(accountId: number): Placement {
  return {
    accountId,
    hidden: true,
    cur: Object.fromEntries(CHANGE_COLUMNS.map(({ column }) => [column, 0])),
    windows: Object.fromEntries(LIVE_WINDOWS.map((window) => [window, null])) as Placement['windows'],
  };
}
