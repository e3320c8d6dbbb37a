import { Inject, Injectable, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { JsonLogger } from '../common/logging/json-logger';
import { ProblemException } from '../common/problem/problem.exception';
import { REDIS, redisKey } from '../common/redis/redis.module';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { DerivedState, DerivedStateKeeper } from '../derived/derived-state';
import { VersionKeys, VersionedRedisState } from '../derived/versioned-redis-state';

/** One group on the board: its 1-based rank and its score (platform members). */
export interface RankedGroup {
  gid: number;
  members: number;
  rank: number;
}

const MAX_GID = 4_294_967_295;
/** Members are the gid's complement, zero-padded: among equal scores Redis's reverse order then puts the lower gid first. */
const memberOf = (gid: number): string => String(MAX_GID - gid).padStart(10, '0');
const gidOf = (member: string): number => MAX_GID - Number(member);

const BATCH = 5_000;
/** Groups read this close to a build's start are placed again after it, in case the build read them stale. */
const REBUILD_OVERLAP_MS = 10_000;

/**
 * The `most_members` group board: one Redis sorted set of every readable (not hidden) group scored by its platform
 * member count, so a rank, a window and the board's size are O(log N) whatever the number of groups — the rank
 * engine's approach (src/ranks) for one board without scopes. The worker's group refresh places a group right
 * after writing its row; `rebuild` recomputes the set from PostgreSQL under a new version while the old one serves
 * (first start, a Redis flush, a seed). ~92 bytes per group in Redis.
 */
@Injectable()
@DerivedState('group-board')
export class GroupBoard implements DerivedStateKeeper, OnApplicationBootstrap, OnModuleInit {
  private readonly logger = new JsonLogger('GroupBoard');
  private readonly keys: VersionKeys;
  private readonly state: VersionedRedisState;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    const prefix = this.key('v');
    this.keys = {
      version: this.key('version'),
      sequence: this.key('sequence'),
      lock: this.key('lock'),
      everyVersion: this.key('v[0-9]*'),
      versionOf: (key) => (key.startsWith(prefix) ? key.slice(prefix.length) : null),
    };
    this.state = new VersionedRedisState(redis, this.keys, () => this.build());
  }

  private key(...parts: string[]): string {
    return redisKey(this.config, 'groups', 'board', ...parts);
  }

  /** Starts the boot-time build now, so that it overlaps the other keepers' (see VersionedRedisState.startBootstrap). */
  onModuleInit(): void {
    this.state.startBootstrap();
  }

  onApplicationBootstrap(): Promise<void> {
    return this.state.bootstrap();
  }

  /** Starts (or joins) a build when no version exists; another process's build is left to finish on its own. */
  ensureBuilt(): Promise<void> {
    return this.state.ensureBuilt();
  }

  rebuild(): Promise<void> {
    return this.state.rebuild();
  }

  /** Puts a group where its last read says: scored by its members, or off the board when hidden or gone. */
  async place(gid: number, members: number | null): Promise<void> {
    const version = await this.state.current();
    if (!version) return;
    if (members === null) await this.redis.zrem(this.key(`v${version}`), memberOf(gid));
    else await this.redis.zadd(this.key(`v${version}`), members, memberOf(gid));
  }

  /** The set being served; while none exists a build is started and callers get 503. */
  private async board(): Promise<string> {
    const version = await this.state.current();
    if (version) return this.key(`v${version}`);
    this.state.startBuild();
    throw new ProblemException(503, 'The group leaderboard is being rebuilt; try again in a minute.', { headers: { 'Retry-After': '60' } });
  }

  /** Ranks start..end (1-based, inclusive) and the board's size. */
  async window(start: number, end: number): Promise<{ groups: RankedGroup[]; size: number }> {
    const board = await this.board();
    const [[, flat], [, size]] = (await this.redis
      .multi()
      .zrevrange(board, start - 1, end - 1, 'WITHSCORES')
      .zcard(board)
      .exec()) as [[unknown, string[]], [unknown, number]];
    const groups: RankedGroup[] = [];
    for (let i = 0; i < flat.length; i += 2) groups.push({ gid: gidOf(flat[i]), members: Number(flat[i + 1]), rank: start + i / 2 });
    return { groups, size: Number(size) };
  }

  /** A group's rank, or null when it is not on the board. */
  async rankOf(gid: number): Promise<number | null> {
    const rank = await this.redis.zrevrank(await this.board(), memberOf(gid));
    return rank === null ? null : rank + 1;
  }

  /** Fills a fresh version in keyset batches of the primary key, switches to it, then drops every other version. */
  private async build(): Promise<void> {
    const started = Date.now();
    const version = await this.state.nextVersion();
    const board = this.key(`v${version}`);
    let after = 0;
    let groups = 0;
    for (;;) {
      const rows: { gid: string; member_count: number }[] = await this.dataSource.query(
        `SELECT gid, member_count FROM groups WHERE gid > $1 AND privacy <> 'hidden' ORDER BY gid LIMIT ${BATCH}`,
        [after],
      );
      if (!rows.length) break;
      await this.redis.zadd(board, ...rows.flatMap((row) => [row.member_count, memberOf(Number(row.gid))]));
      groups += rows.length;
      after = Number(rows[rows.length - 1].gid);
    }
    await this.state.serve(version);
    const recent: { gid: string; member_count: number; privacy: string }[] = await this.dataSource.query(
      'SELECT gid, member_count, privacy FROM groups WHERE refreshed_at >= $1',
      [new Date(started - REBUILD_OVERLAP_MS)],
    );
    for (const row of recent) await this.place(Number(row.gid), row.privacy === 'hidden' ? null : row.member_count);
    await this.state.dropAllBut(version);
    this.logger.log({ msg: 'group board rebuilt', version, groups, durationMs: Date.now() - started });
  }
}
