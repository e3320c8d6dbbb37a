import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { ProblemException } from '../common/problem/problem.exception';
import { REDIS } from '../common/redis/redis.module';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { LAZY_SOURCES, LazyKind } from './lazy-board-sources';
import { RankKeys } from './rank-keys';
import { BoardScope, RankReader } from './rank-reader.service';
import { LocationFilter, memberOf, scopeKeysOf, scopeSql } from './rank-scopes';

const FETCH = 20_000;
const BUILD_LOCK_MS = 120_000;
const WAIT_MS = 30_000;
const REPLACE_OVERLAP_MS = 10_000;

/**
 * Per-app and per-badge boards, kept as sorted sets only while they are looked at. There are as many of them as
 * apps and badges, and together they would hold one entry per owned app and held badge (over 100 million at 1M
 * accounts), far beyond the memory budget; but few are read at a time. A board (in a scope) is built from
 * PostgreSQL on its first read (one index range scan: O(board)), then kept in step by the update worker like
 * the column boards (O(log N) per read), and dropped least-recently-read first once all of them together hold
 * more than `RANK_LAZY_BUDGET` entries. A build lives in the rank engine's current version, so a rebuild or a
 * flush drops them all.
 */
@Injectable()
export class LazyBoards {
  private readonly keys: RankKeys;

  constructor(
    private readonly reader: RankReader,
    @Inject(REDIS) private readonly redis: Redis,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.keys = new RankKeys(config);
  }

  private base(version: string): string {
    return this.keys.lazy(version);
  }
  private board(version: string, kind: LazyKind, id: number, scope: string): string {
    return `${this.base(version)}:${kind}:${id}:${scope}`;
  }
  /** Hash scope → `building` | `ready`: which scopes of one app's or badge's board exist. */
  private index(version: string, kind: LazyKind, id: number): string {
    return `${this.base(version)}:idx:${kind}:${id}`;
  }

  /** The board of one app or badge in the scope the locations select, built first if nobody has read it lately. */
  async scope(kind: LazyKind, id: number, locations: (LocationFilter | null)[] | undefined | null): Promise<BoardScope> {
    const version = await this.reader.version();
    const scopes = await this.reader.scopeKeysFor(version, locations);
    const keys: string[] = [];
    for (const scope of scopes) keys.push(await this.ensure(version, kind, id, scope));
    let key = keys[0] ?? `${this.base(version)}:none`;
    if (keys.length > 1) {
      key = `${this.base(version)}:u:${kind}:${id}:${scopes.join('+')}`;
      await this.redis
        .multi()
        .zunionstore(key, keys.length, ...keys, 'AGGREGATE', 'MAX')
        .expire(key, 20)
        .exec();
    }
    const size = await this.redis.zcard(key);
    return { version, column: kind, key, scopes, population: size, scored: size, sql: (offset) => scopeSql(scopes, offset) };
  }

  /** Makes sure one board in one scope is built (building it, or waiting for the process that is), and returns its key. */
  private async ensure(version: string, kind: LazyKind, id: number, scope: string): Promise<string> {
    const key = this.board(version, kind, id, scope);
    const member = `${kind}:${id}:${scope}`;
    const deadline = Date.now() + WAIT_MS;
    while ((await this.redis.hget(this.index(version, kind, id), scope)) !== 'ready') {
      if (await this.redis.set(`${key}:lock`, '1', 'PX', BUILD_LOCK_MS, 'NX')) {
        try {
          await this.build(version, kind, id, scope, key);
        } finally {
          await this.redis.del(`${key}:lock`);
        }
        break;
      }
      if (Date.now() > deadline)
        throw new ProblemException(503, 'This leaderboard is being built; try again shortly.', { headers: { 'Retry-After': '5' } });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await this.redis.zadd(`${this.base(version)}:lru`, Date.now(), member);
    return key;
  }

  private async build(version: string, kind: LazyKind, id: number, scope: string, key: string): Promise<void> {
    const started = Date.now();
    // Registered first, so updates committed while the build reads go into the set too.
    await this.redis
      .multi()
      .del(key)
      .hset(this.index(version, kind, id), scope, 'building')
      .exec();
    const filter = scopeSql([scope], 1);
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`DECLARE lazy_board NO SCROLL CURSOR FOR ${LAZY_SOURCES[kind].sql} AND ${filter.where}`, [
        id,
        ...filter.parameters,
      ]);
      for (;;) {
        const rows: { account_id: number; score: string }[] = await manager.query(`FETCH ${FETCH} FROM lazy_board`);
        if (!rows.length) break;
        await this.redis.zadd(key, ...rows.flatMap((row) => [row.score, memberOf(row.account_id)]));
      }
    });
    // A build may have read an account before an update of it committed: place the recently updated ones again.
    const recent: { account_id: number }[] = await this.dataSource.query('SELECT account_id FROM accounts WHERE updated_at >= $1', [
      new Date(started - REPLACE_OVERLAP_MS),
    ]);
    for (const { account_id } of recent) await this.placeOne(version, account_id, [{ kind, id, scopes: [scope] }]);
    await this.redis
      .multi()
      .hset(this.index(version, kind, id), scope, 'ready')
      .hset(`${this.base(version)}:size`, `${kind}:${id}:${scope}`, await this.redis.zcard(key))
      .exec();
    await this.evict(version, `${kind}:${id}:${scope}`);
  }

  /** Drops least-recently-read boards while all of them together hold more entries than the budget. */
  private async evict(version: string, keep: string): Promise<void> {
    const sizes = await this.redis.hgetall(`${this.base(version)}:size`);
    let total = Object.values(sizes).reduce((sum, n) => sum + Number(n), 0);
    const oldest = await this.redis.zrange(`${this.base(version)}:lru`, 0, -1);
    for (const member of oldest) {
      if (total <= this.config.ranks.lazyBudget) break;
      if (member === keep) continue;
      const [kind, id, scope] = [member.split(':')[0] as LazyKind, Number(member.split(':')[1]), member.split(':').slice(2).join(':')];
      await this.redis
        .multi()
        .hdel(this.index(version, kind, id), scope)
        .del(this.board(version, kind, id, scope))
        .zrem(`${this.base(version)}:lru`, member)
        .hdel(`${this.base(version)}:size`, member)
        .exec();
      total -= Number(sizes[member] ?? 0);
    }
  }

  /** The apps and badges an account holds now: an update re-places it on their boards and on those it left. */
  async held(accountId: number): Promise<{ apps: number[]; badges: number[] }> {
    const [apps, badges]: { id: number }[][] = await Promise.all([
      this.dataSource.query('SELECT app_id AS id FROM account_apps WHERE account_id = $1', [accountId]),
      this.dataSource.query('SELECT badge_id AS id FROM account_badges WHERE account_id = $1', [accountId]),
    ]);
    return { apps: apps.map((row) => row.id), badges: badges.map((row) => row.id) };
  }

  /** After an update: the account's entries on every built board of the apps and badges it held before or holds now. */
  async place(accountId: number, before: { apps: number[]; badges: number[] }): Promise<void> {
    const version = await this.redis.get(this.keys.version);
    if (!version) return;
    const now = await this.held(accountId);
    const candidates: { kind: LazyKind; id: number }[] = [
      ...[...new Set([...before.apps, ...now.apps])].map((id) => ({ kind: 'app' as const, id })),
      ...[...new Set([...before.badges, ...now.badges])].flatMap((id) => [
        { kind: 'badge_completion_time' as const, id },
        { kind: 'badge_highest_level' as const, id },
      ]),
    ];
    if (!candidates.length) return;
    const pipeline = this.redis.pipeline();
    for (const { kind, id } of candidates) pipeline.hkeys(this.index(version, kind, id));
    const built = (await pipeline.exec())!
      .map(([, scopes], i) => ({ ...candidates[i], scopes: scopes as string[] }))
      .filter((b) => b.scopes.length);
    if (built.length) await this.placeOne(version, accountId, built);
  }

  private async placeOne(version: string, accountId: number, boards: { kind: LazyKind; id: number; scopes: string[] }[]): Promise<void> {
    const cell = await this.redis.hget(this.keys.placement(version), String(accountId));
    const own = new Set(cell === null ? [] : Object.values(scopeKeysOf(cell)));
    const member = memberOf(accountId);
    const pipeline = this.redis.pipeline();
    for (const kind of new Set(boards.map((b) => b.kind))) {
      const ids = boards.filter((b) => b.kind === kind).map((b) => b.id);
      const rows: { id: number; score: string }[] = await this.dataSource.query(LAZY_SOURCES[kind].accountSql, [accountId, ids]);
      const scores = new Map(rows.map((row) => [row.id, row.score]));
      for (const board of boards.filter((b) => b.kind === kind))
        for (const scope of board.scopes) {
          const key = this.board(version, kind, board.id, scope);
          const score = scores.get(board.id);
          if (score !== undefined && own.has(scope)) pipeline.zadd(key, score, member);
          else pipeline.zrem(key, member);
        }
    }
    await pipeline.exec();
  }
}
