import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { EntityManager } from 'typeorm';
import { JsonLogger } from '../common/logging/json-logger';
import { REDIS, redisKey } from '../common/redis/redis.module';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { NewChange } from './change-entry';

/** The pub/sub channel of the nudges (a nudge carries no change, only the accounts to wait for). */
export function nudgeChannel(config: Pick<AppConfig, 'redisPrefix'>): string {
  return redisKey(config, 'change-feed');
}

/** A nudge as published: the accounts named by the entries just committed. */
export interface Nudge {
  accountIds: number[];
}

/** The writers' side of the feed (see change-feed.module.ts): record in the change's transaction, nudge after it. */
@Injectable()
export class ChangeFeed {
  private readonly logger = new JsonLogger('ChangeFeed');
  private readonly channel: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
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
   * profile's ranks, RankReplicaService). Best effort: never throws.
   */
  async nudge(accountIds: number[] = []): Promise<void> {
    const message: Nudge = { accountIds };
    await this.redis
      .publish(this.channel, JSON.stringify(message))
      .catch((error: unknown) => this.logger.debug({ msg: 'could not nudge the change feed', error: String(error) }));
  }
}
