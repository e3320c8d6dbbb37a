import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { filter, Observable } from 'rxjs';
import { RedisChannel } from '../../common/redis/redis-channel';
import { REDIS } from '../../common/redis/redis.module';
import { ReplayTail, ReplayTails } from '../../common/replay/replay-tail';
import { ProgressSnapshot, UpdateProgressService } from '../../account-records/progress/update-progress.service';

/** A message on the account-events channel: update progress (queueing, the worker) or a profile view. */
export type AccountEventMessage =
  | { type: 'progress'; accountId: number; status: string; progress: ProgressSnapshot }
  | { type: 'view'; accountId: number; totalDelta: number };

/**
 * The account-events channel as seen by `account.subscribe`: one Redis subscription per process, filtered per
 * stream; and the live ends of the accounts' replay logs, one per account followed in this process.
 */
@Injectable()
export class AccountEventsService implements OnModuleDestroy {
  private readonly channel: RedisChannel<AccountEventMessage>;
  private readonly tails: ReplayTails<number>;

  constructor(@Inject(REDIS) redis: Redis, progress: UpdateProgressService) {
    this.channel = new RedisChannel(redis, progress.channel);
    this.tails = new ReplayTails(
      (accountId, onIdle) =>
        new ReplayTail(
          progress.accountLog(accountId),
          { listen: () => this.forAccount(accountId), ready: () => this.channel.ready() },
          onIdle,
        ),
    );
  }

  forAccount(accountId: number): Observable<AccountEventMessage> {
    return this.channel.listen().pipe(filter((message) => message.accountId === accountId));
  }

  /** The live end of the account's replay log (its events as `account.subscribe` sends them). */
  tail(accountId: number): ReplayTail {
    return this.tails.get(accountId);
  }

  async onModuleDestroy(): Promise<void> {
    await this.channel.close();
  }
}
