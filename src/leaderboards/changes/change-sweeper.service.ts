import { releaseLock, tryLock } from '../../common/redis/redis-lock';
import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { PeriodicTask } from '../../common/lifecycle/periodic-task';
import { JsonLogger } from '../../common/logging/json-logger';
import { REDIS } from '../../common/redis/redis.module';
import { BoardChanges } from './board-changes.service';
import { LIVE_WINDOWS, WINDOW_DAYS } from './change-keys';

/** How often the sweeper catches up; also how late a run leaving a window may still count in it. */
export const SWEEP_MS = 1_000;
/** Every completed run is placed again this long after it finished, in case the writer's placement was lost. */
const RECENT_MS = 10_000;
const LOCK_MS = 60_000;

/**
 * Keeps the changes' live windows sliding (worker process only): every second it re-places the accounts whose runs
 * left a live window since the last sweep (finished between the last sweep and now, shifted by the window's length), and the
 * accounts that completed a run ten seconds before (a worker that died between commit and placement). Both are
 * ranges of ix_account_updates_completed, so a sweep costs what the update rate puts in them, not the population.
 * One sweeper at a time across processes (a Redis lock); the last swept time is kept per version.
 */
@Injectable()
export class ChangeSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly task = new PeriodicTask(new JsonLogger('ChangeSweeper'), 'changes sweep failed', SWEEP_MS, () => this.sweep());

  constructor(
    private readonly changes: BoardChanges,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }

  /** One catch-up; returns how many accounts it placed again (also called by tests). */
  async sweep(): Promise<number> {
    const keys = this.changes.keys;
    const token = await tryLock(this.redis, keys.sweepLock, LOCK_MS);
    if (!token) return 0;
    try {
      const version = await this.redis.get(keys.version);
      if (!version) return 0;
      const [{ now }]: { now: Date }[] = await this.dataSource.query('SELECT now() AS now');
      const last = Number((await this.redis.get(keys.swept(version))) ?? now.getTime());
      // Each completed run comes up once per window edge, and once RECENT_MS after it finished (by then its
      // transaction has committed: `finished_at` is stamped before the commit).
      const lengths = [RECENT_MS, ...LIVE_WINDOWS.map((window) => WINDOW_DAYS[window] * 86_400_000)];
      const ranges = lengths.map((length): [Date, Date] => [new Date(last - length), new Date(now.getTime() - length)]);
      const rows: { account_id: number }[] = await this.dataSource.query(
        `SELECT DISTINCT account_id FROM account_updates
          WHERE status = 'completed' AND (${ranges.map((_, i) => `(finished_at > $${2 * i + 1} AND finished_at <= $${2 * i + 2})`).join(' OR ')})`,
        ranges.flat(),
      );
      await this.changes.place(rows.map((row) => row.account_id));
      // Only the version it swept: a rebuild that switched meanwhile keeps its own start as its mark.
      if ((await this.redis.get(keys.version)) === version) await this.redis.set(keys.swept(version), now.getTime());
      return rows.length;
    } finally {
      await releaseLock(this.redis, keys.sweepLock, token);
    }
  }
}
