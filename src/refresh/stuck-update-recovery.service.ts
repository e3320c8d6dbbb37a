import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { JsonLogger } from '../common/logging/json-logger';
import { AccountUpdateQueueService } from './account-update-queue.service';

/**
 * When the worker starts, every account still marked `pending` or `in_progress` must have a job behind it.
 * BullMQ recovers jobs whose worker died (stalled jobs); this covers the rest, e.g. a job lost with Redis
 * data, so no account is left waiting forever.
 */
@Injectable()
export class StuckUpdateRecovery implements OnApplicationBootstrap {
  private readonly logger = new JsonLogger('StuckUpdateRecovery');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly queue: AccountUpdateQueueService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const rows: { account_id: number; run_id: string | null }[] = await this.dataSource.query(
      `SELECT a.account_id,
              (SELECT u.run_id FROM account_updates u
                WHERE u.account_id = a.account_id AND u.status IN ('pending', 'in_progress')
                ORDER BY u.queued_at DESC LIMIT 1) AS run_id
         FROM accounts a WHERE a.last_queue_status IN ('pending', 'in_progress')`,
    );
    let requeued = 0;
    for (const row of rows) {
      if (row.run_id && (await this.queue.hasJob(row.account_id, row.run_id))) continue;
      const runId = row.run_id ?? randomUUID();
      if (!row.run_id) {
        await this.dataSource.query(
          `INSERT INTO account_updates (run_id, account_id, status, queued_at, steps) VALUES ($1, $2, 'pending', now(), '[]')`,
          [runId, row.account_id],
        );
      }
      await this.queue.enqueue(row.account_id, runId);
      requeued++;
    }
    if (requeued) this.logger.warn({ msg: 're-queued updates that had no job', requeued });
  }
}
