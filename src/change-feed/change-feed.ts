import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { EntityManager } from 'typeorm';
import { JsonLogger } from '../common/logging/json-logger';
import { REDIS } from '../common/redis/redis.module';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { NewChange } from './change-entry';
import { ChangeFeedFollower } from './change-feed-follower';
import { Nudge, nudgeChannel } from './nudge';

/** The writers' side of the feed (see change-feed.module.ts): record in the change's transaction, nudge after it. */
@Injectable()
export class ChangeFeed {
  private readonly logger = new JsonLogger('ChangeFeed');
  private readonly channel: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly follower: ChangeFeedFollower,
  ) {
    this.channel = nudgeChannel(config);
  }

  /**
   * Records changes with `manager`: inside a transaction they commit (or roll back) with it; a manager outside one
   * (rows written by hand, a rebuild of Redis state) commits them on their own.
   */
  async record(manager: EntityManager, ...changes: NewChange[]): Promise<void> {
    for (const change of changes) {
      await manager.query('INSERT INTO change_feed (kind, account_ids, payload) VALUES ($1, $2, $3)', [
        change.kind,
        change.accountIds ?? [],
        change.payload ? JSON.stringify(change.payload) : null,
      ]);
    }
  }

  /**
   * After the commit: wakes every process's follower at once, instead of at its next poll (within a second). Readers
   * of `accountIds` that answer from memory ask the stores instead until their follower has read the entry (the
   * profile's ranks, RankReplicaService). This process's follower is told first, without Redis, so that its own reads
   * after the write wait for it. Best effort: never throws.
   */
  async nudge(accountIds: number[] = []): Promise<void> {
    const message: Nudge = { accountIds };
    this.follower.nudged(message);
    await this.redis
      .publish(this.channel, JSON.stringify(message))
      .catch((error: unknown) => this.logger.debug({ msg: 'could not nudge the change feed', error: String(error) }));
  }
}
