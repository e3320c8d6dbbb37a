/**
 * # Profile views, rolled up into PostgreSQL
 *
 * The view counts live in Redis (TrendingCounter's buckets: per hour and per UTC day, each profile's hits in a hash
 * and its viewers in a HyperLogLog), where every view is written behind in batches (AccountViewsService). Redis alone
 * would lose them with its data; so the worker copies them into `profile_view_buckets` and puts them back:
 *
 * - **Changes, not the keyspace.** The hit scripts add `<bucket>|<profile>` to a set of changed buckets (CHANGED_KEY,
 *   one entry per profile and bucket per batch, in the same script: no round trip more per view). Every
 *   VIEW_ROLLUP_INTERVAL_MS the worker takes them FLUSH_BATCH at a time (SPOP, with each bucket's hits and HyperLogLog
 *   as they are then) and upserts one row per profile and bucket: the bucket's state, not a delta, so a row written
 *   twice is still right. A failed write puts the taken entries back. What a Redis that comes back empty loses is what
 *   changed since the last copy: at most one interval of views.
 * - **Uniques without a row per viewer.** The row keeps the bucket's HyperLogLog as Redis encodes it (GET; sparse: a
 *   few dozen bytes for a few viewers, 12 KB at most), so the distinct viewers of 7 or 30 days stay the union of the
 *   buckets' registers (PFCOUNT of several keys), exactly what Redis answered before it lost them.
 * - **Back into Redis.** A mark (`restored`) says this Redis holds the copied counts. Every second the worker checks
 *   it; when it is gone (an empty Redis), it adds every kept row to what Redis holds now (MERGE_BUCKETS: views counted
 *   since are kept, the HyperLogLogs merged), page by page with a cursor in Redis so a restore cut short never adds a
 *   page twice, drops the trending windows' rolling rankings (rebuilt from the buckets by their next read), then sets
 *   the mark. Until then nothing is copied (TAKE_CHANGED answers nothing without the mark): Redis's new, small counts
 *   never overwrite the stored ones.
 * - **Bounded.** Hours are kept for 25 hours, days for 31 (the windows read 24 and 30); older rows are deleted once an
 *   hour by a range of the primary key. One worker at a time (a Redis lock).
 */
import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { PeriodicTask } from '../../common/lifecycle/periodic-task';
import { JsonLogger } from '../../common/logging/json-logger';
import { releaseLock, tryLock } from '../../common/redis/redis-lock';
import { REDIS, redisKey } from '../../common/redis/redis.module';
import { CHANGED_KEY } from '../../common/redis/trending-counter';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { MERGE_BUCKETS, TAKE_CHANGED } from './view-rollup.scripts';
import { ViewTrends } from './view-trends';

const HOUR_MS = 3_600_000;
/** How far back each unit's buckets are kept (the 24 h and 30 d windows, and the bucket under way). */
const KEPT_MS = { h: 25 * HOUR_MS, d: 31 * 24 * HOUR_MS } as const;
/** As the counter's buckets in Redis (TrendingCounter's RETENTION_SECONDS). */
const RETENTION_SECONDS = 32 * 86_400;
/** Changed buckets copied per statement, and statements per round at most (the rest waits for the next round). */
export const FLUSH_BATCH = 2_000;
const FLUSH_BATCHES_PER_ROUND = 50;
/** Rows put back into Redis per script. */
const RESTORE_PAGE = 1_000;
const CHECK_MS = 1_000;
const TAKE_CHANGED_COMMAND = 'badgeStatsTakeChangedViews';
const LOCK_MS = 60_000;

interface BucketRow {
  unit: 'h' | 'd';
  starts_at: Date;
  account_id: number;
  hits: number;
  visitors: Buffer;
}

/** The bucket's name in Redis (TrendingCounter's `bucket`) and back. */
const bucketName = (unit: 'h' | 'd', at: Date) => `${unit}${at.toISOString().slice(0, unit === 'h' ? 13 : 10)}`;
const bucketStart = (name: string) => new Date(name.length === 14 ? `${name.slice(1)}:00:00Z` : `${name.slice(1)}T00:00:00Z`);

@Injectable()
export class ViewRollup implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new JsonLogger('ViewRollup');
  private readonly task = new PeriodicTask(this.logger, 'view rollup failed', CHECK_MS, () => this.round());
  private readonly namespace: string;
  private readonly keys: { changed: string; restored: string; restoring: string; lock: string };
  private nextFlushAt = 0;
  private nextPruneAt = 0;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly trends: ViewTrends,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.namespace = redisKey(config, 'views');
    const key = (name: string) => `${this.namespace}:${name}`;
    this.keys = { changed: key(CHANGED_KEY), restored: key('restored'), restoring: key('restoring'), lock: key('rollup-lock') };
    // The HyperLogLogs are binary: read through the command's Buffer form (`…Buffer`, which defineCommand adds).
    redis.defineCommand(TAKE_CHANGED_COMMAND, { numberOfKeys: 2, lua: TAKE_CHANGED });
  }

  onApplicationBootstrap(): void {
    this.nextFlushAt = Date.now() + this.config.views.rollupIntervalMs;
    this.task.start();
  }

  /** Copies what is left on the way out: a worker stopped in order loses no views. */
  async onApplicationShutdown(): Promise<void> {
    await this.task.stop();
    await this.round(true).catch((error: unknown) => this.logger.warn({ msg: 'last view rollup failed', error: String(error) }));
  }

  /** One round: restores an empty Redis, then copies the changes when due (`flushNow`: at once). Tests call it. */
  async round(flushNow = false): Promise<void> {
    const token = await tryLock(this.redis, this.keys.lock, LOCK_MS);
    if (!token) return;
    try {
      if (!(await this.redis.exists(this.keys.restored))) await this.restore();
      if (flushNow || Date.now() >= this.nextFlushAt) {
        this.nextFlushAt = Date.now() + this.config.views.rollupIntervalMs;
        await this.flush();
      }
      if (Date.now() >= this.nextPruneAt) {
        await this.prune();
        this.nextPruneAt = Date.now() + HOUR_MS;
      }
    } finally {
      await releaseLock(this.redis, this.keys.lock, token);
    }
  }

  /** Copies the changed buckets into PostgreSQL; returns how many rows it wrote. */
  async flush(): Promise<number> {
    let written = 0;
    for (let batch = 0; batch < FLUSH_BATCHES_PER_ROUND; batch++) {
      const take = (this.redis as unknown as Record<string, (...args: (string | number)[]) => Promise<Buffer[] | null>>)[
        `${TAKE_CHANGED_COMMAND}Buffer`
      ];
      const reply = await take.call(this.redis, this.keys.restored, this.keys.changed, FLUSH_BATCH, this.namespace);
      if (!reply?.length) return written;
      const entries: string[] = [];
      const rows: BucketRow[] = [];
      const oldest = { h: Date.now() - KEPT_MS.h, d: Date.now() - KEPT_MS.d };
      for (let i = 0; i < reply.length; i += 3) {
        const entry = reply[i].toString();
        entries.push(entry);
        const [bucket, member] = entry.split('|');
        const unit = bucket[0] as 'h' | 'd';
        const startsAt = bucketStart(bucket);
        const accountId = Number(member);
        if (!reply[i + 1].length || !reply[i + 2].length || !Number.isSafeInteger(accountId) || !(startsAt.getTime() >= oldest[unit]))
          continue;
        rows.push({ unit, starts_at: startsAt, account_id: accountId, hits: Number(reply[i + 1].toString()), visitors: reply[i + 2] });
      }
      try {
        await this.upsert(rows);
      } catch (error) {
        // Taken but not written: back into the set for the next round (a hit meanwhile may have added some again).
        await this.redis.sadd(this.keys.changed, ...entries).catch(() => undefined);
        throw error;
      }
      written += rows.length;
      if (entries.length < FLUSH_BATCH) break;
    }
    return written;
  }

  /**
   * One statement per batch. A row is replaced only by a state with at least its hits: a bucket's hits never fall,
   * except in a Redis that came back empty and has not been restored (a copy taken in the instant before it lost its
   * data and written after, or a Redis emptied between a round's check and its copy).
   */
  private async upsert(rows: BucketRow[]): Promise<void> {
    if (!rows.length) return;
    await this.dataSource.query(
      `INSERT INTO profile_view_buckets (unit, starts_at, account_id, hits, visitors)
       SELECT * FROM unnest($1::char[], $2::timestamptz[], $3::int[], $4::int[], $5::bytea[])
       ON CONFLICT (unit, starts_at, account_id) DO UPDATE SET hits = EXCLUDED.hits, visitors = EXCLUDED.visitors
         WHERE EXCLUDED.hits >= profile_view_buckets.hits`,
      [
        rows.map((row) => row.unit),
        rows.map((row) => row.starts_at),
        rows.map((row) => row.account_id),
        rows.map((row) => row.hits),
        rows.map((row) => row.visitors),
      ],
    );
  }

  /** Adds every kept bucket back into Redis (see MERGE_BUCKETS), then marks it restored; returns the rows restored. */
  async restore(): Promise<number> {
    const started = Date.now();
    const cursor = await this.redis.get(this.keys.restoring);
    let [unit, after, accountId] = cursor ? (cursor.split('|') as ['h' | 'd', string, string]) : ['d' as const, '', '0'];
    let restored = 0;
    for (const current of ['d', 'h'] as const) {
      if (current === 'h' && unit === 'd') [unit, after, accountId] = ['h', '', '0'];
      if (current !== unit) continue;
      const oldest = new Date(Date.now() - KEPT_MS[current]);
      for (;;) {
        const from = after ? new Date(after) : oldest;
        const rows: BucketRow[] = await this.dataSource.query(
          `SELECT unit, starts_at, account_id, hits, visitors FROM profile_view_buckets
            WHERE unit = $1 AND starts_at >= $2 AND (starts_at, account_id) > ($3, $4)
            ORDER BY starts_at, account_id LIMIT ${RESTORE_PAGE}`,
          [current, oldest, from, after ? Number(accountId) : -1],
        );
        if (!rows.length) break;
        const last = rows[rows.length - 1];
        [after, accountId] = [last.starts_at.toISOString(), String(last.account_id)];
        const args = rows.flatMap((row) => [
          bucketName(row.unit, row.starts_at),
          String(row.account_id),
          String(row.hits),
          row.visitors,
          String(Math.floor(row.starts_at.getTime() / 1000)),
        ]);
        const now = String(Math.floor(Date.now() / 1000));
        await this.redis.eval(
          MERGE_BUCKETS,
          1,
          this.keys.restoring,
          now,
          RETENTION_SECONDS,
          this.namespace,
          `${current}|${after}|${accountId}`,
          ...args,
        );
        restored += rows.length;
        if (rows.length < RESTORE_PAGE) break;
      }
    }
    // The rolling rankings built meanwhile summed buckets without the restored counts: built again by their next read.
    await this.trends.rebuild();
    await this.redis.multi().set(this.keys.restored, String(Date.now())).del(this.keys.restoring).exec();
    this.logger.log({ msg: 'profile views restored into Redis', rows: restored, ms: Date.now() - started });
    return restored;
  }

  /** Deletes the buckets no window reads any more: a range of the primary key per unit. */
  private async prune(): Promise<void> {
    for (const unit of ['h', 'd'] as const)
      await this.dataSource.query('DELETE FROM profile_view_buckets WHERE unit = $1 AND starts_at < $2', [
        unit,
        new Date(Date.now() - KEPT_MS[unit]),
      ]);
  }
}
