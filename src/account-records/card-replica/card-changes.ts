import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { JsonLogger } from '../../common/logging/json-logger';
import { REDIS, redisKey } from '../../common/redis/redis.module';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

/**
 * What a writer of account cards other than the update worker publishes after its commit: the accounts whose row
 * or roles it changed (a donation, a role granted or revoked, an account added). The worker's own writes are told
 * by the completed runs (completed-runs.ts). Every HTTP process's card replica (CardReplica) reads those cards again.
 */
export interface CardsChangedMessage {
  accountIds: number[];
}

/** At most this many accounts per message: a writer changing more sends several. */
const MAX_IDS_PER_MESSAGE = 1_000;

export function cardsChangedChannel(config: Pick<AppConfig, 'redisPrefix'>): string {
  return redisKey(config, 'accounts', 'cards-changed');
}

/** The accounts a message names, or null when it is not one (a stray publish on the channel). */
export function parseCardsChanged(raw: string): number[] | null {
  try {
    const { accountIds } = (JSON.parse(raw) as Partial<CardsChangedMessage> | null) ?? {};
    if (!Array.isArray(accountIds) || !accountIds.every((id) => Number.isInteger(id))) return null;
    return accountIds;
  } catch {
    return null;
  }
}

/** Tells the card replicas which accounts' cards a commit changed. */
@Injectable()
export class CardChanges {
  private readonly logger = new JsonLogger('CardChanges');
  private readonly channel: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.channel = cardsChangedChannel(config);
  }

  /**
   * Call after the commit. Best effort, as the completed runs are: a replica that misses the message (Redis away)
   * lost its subscription too, and reloads every card when it subscribes again.
   */
  async announce(accountIds: number[]): Promise<void> {
    for (let i = 0; i < accountIds.length; i += MAX_IDS_PER_MESSAGE) {
      const message: CardsChangedMessage = { accountIds: accountIds.slice(i, i + MAX_IDS_PER_MESSAGE) };
      await this.redis
        .publish(this.channel, JSON.stringify(message))
        .catch((error: unknown) => this.logger.warn({ msg: 'could not announce changed cards', error: String(error) }));
    }
  }
}
