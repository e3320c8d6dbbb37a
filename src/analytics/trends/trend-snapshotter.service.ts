import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PeriodicTask } from '../../common/lifecycle/periodic-task';
import { JsonLogger } from '../../common/logging/json-logger';
import { dayOf, writeTrendSnapshot } from './trend-snapshots';

/** How often the worker looks whether today's snapshot is written (one indexed read). */
const CHECK_EVERY_MS = 10 * 60_000;

/**
 * The worker writes each day's trend snapshot (trend-snapshots.ts) once: at boot when today's is missing, then at the
 * first check of each new UTC day. Several workers take turns under a transaction-scoped advisory lock, and the one
 * that finds the day written does nothing.
 */
@Injectable()
export class TrendSnapshotter implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new JsonLogger('TrendSnapshotter');
  private readonly task = new PeriodicTask(this.logger, 'trend snapshot failed', CHECK_EVERY_MS, () => this.snapshotIfMissing());
  private first: Promise<unknown> | null = null;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onApplicationBootstrap(): void {
    this.first = this.snapshotIfMissing().catch((error: Error) => this.logger.warn({ msg: 'trend snapshot failed', error: error.message }));
    this.task.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.first;
    await this.task.stop();
  }

  /** Writes today's snapshot unless it is there; whether this call wrote it. */
  async snapshotIfMissing(now = Date.now()): Promise<boolean> {
    const day = dayOf(now);
    return this.dataSource.transaction(async (manager) => {
      const [{ locked }] = await manager.query(`SELECT pg_try_advisory_xact_lock(hashtext('analytics-trend-snapshot')) AS locked`);
      if (!locked) return false;
      const present = await manager.query('SELECT 1 FROM analytics_daily_quantiles WHERE metric = $1 AND scope_key = $2 AND day = $3', [
        'xp',
        'g',
        day,
      ]);
      if (present.length) return false;
      const started = Date.now();
      const rows = await writeTrendSnapshot((sql, parameters) => manager.query(sql, parameters), day);
      this.logger.log({ msg: 'trend snapshot written', day, rows, ms: Date.now() - started });
      return true;
    });
  }
}
