import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { EntityManager } from 'typeorm';
import { JsonLogger } from '../common/logging/json-logger';
import { REDIS } from '../common/redis/redis.module';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { NewChange, Nudge, nudgeChannel } from './change-entry';
import { ChangeFeedFollower } from './change-feed-follower';

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

  /** Records a change with `manager`: in a transaction it commits with it; outside one (rows by hand), on its own. */
  async record(manager: EntityManager, { kind, accountIds = [], payload }: NewChange): Promise<void> {
    const sql = 'INSERT INTO change_feed (kind, account_ids, payload) VALUES ($1, $2, $3)';
    await manager.query(sql, [kind, accountIds, payload ? JSON.stringify(payload) : null]);
  }

  /**
   * After the commit: wakes every process's follower now rather than at its next poll; until it has read the entry,
   * readers of `accountIds` answer from the stores (the profile's ranks). This process's follower is told without
   * Redis, so that its own reads after the write wait for it. Best effort: never throws.
   */
  async nudge(accountIds: number[] = []): Promise<void> {
    const message: Nudge = { accountIds };
    this.follower.nudged(message);
    await this.redis
      .publish(this.channel, JSON.stringify(message))
      .catch((error: unknown) => this.logger.debug({ msg: 'could not nudge the change feed', error: String(error) }));
  }
}
