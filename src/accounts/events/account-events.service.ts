import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { filter, Observable } from 'rxjs';
import { RedisChannel } from '../../common/redis/redis-channel';
import { REDIS } from '../../common/redis/redis.module';
import { ProgressSnapshot, UpdateProgressService } from '../progress/update-progress.service';

/** A message on the account-events channel: update progress (queueing, the worker) or a profile view. */
export type AccountEventMessage =
  | { type: 'progress'; accountId: number; status: string; progress: ProgressSnapshot }
  | { type: 'view'; accountId: number; totalDelta: number };

/** The account-events channel as seen by `account.subscribe`: one Redis subscription per process, filtered per stream. */
@Injectable()
export class AccountEventsService implements OnModuleDestroy {
  private readonly channel: RedisChannel<AccountEventMessage>;

  constructor(@Inject(REDIS) redis: Redis, progress: UpdateProgressService) {
    this.channel = new RedisChannel(redis, progress.channel);
  }

  forAccount(accountId: number): Observable<AccountEventMessage> {
    return this.channel.listen().pipe(filter((message) => message.accountId === accountId));
  }

  async onModuleDestroy(): Promise<void> {
    await this.channel.close();
  }
}
