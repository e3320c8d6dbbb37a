import { redisKey } from '../common/redis/redis.module';
import { AppConfig } from '../config/app-config';

/** The pub/sub channel of the nudges (a nudge carries no change, only the accounts to wait for). */
export function nudgeChannel(config: Pick<AppConfig, 'redisPrefix'>): string {
  return redisKey(config, 'change-feed');
}

/** A nudge as published: the accounts named by the entries just committed. */
export interface Nudge {
  accountIds: number[];
}
