import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { Observable, Subject, filter } from 'rxjs';
import { JsonLogger } from '../../common/logging/json-logger';
import { REDIS } from '../../common/redis/redis.module';
import { ProgressSnapshot, UpdateProgressService } from '../updates/update-progress.service';

/** A message on the account-events channel (published by queueing and by the worker). */
export interface AccountEventMessage {
  type: 'progress';
  accountId: number;
  status: string;
  progress: ProgressSnapshot;
}

/**
 * One Redis subscription per API process, fanned out to every open `account.subscribe` stream. The
 * subscription is opened with the first listener and closed with the last.
 */
@Injectable()
export class AccountEventsService implements OnModuleDestroy {
  private readonly logger = new JsonLogger('AccountEvents');
  private subscriber: Redis | null = null;
  private listeners = 0;
  private readonly messages = new Subject<AccountEventMessage>();

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly progress: UpdateProgressService,
  ) {}

  forAccount(accountId: number): Observable<AccountEventMessage> {
    return new Observable<AccountEventMessage>((observer) => {
      if (this.listeners++ === 0) this.open();
      const subscription = this.messages.pipe(filter((message) => message.accountId === accountId)).subscribe(observer);
      return () => {
        subscription.unsubscribe();
        if (--this.listeners === 0) void this.close();
      };
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.close();
  }

  private open(): void {
    const subscriber = this.redis.duplicate();
    this.subscriber = subscriber;
    subscriber.on('message', (_channel: string, raw: string) => {
      try {
        this.messages.next(JSON.parse(raw) as AccountEventMessage);
      } catch {
        this.logger.warn({ msg: 'ignoring a malformed account event' });
      }
    });
    subscriber
      .subscribe(this.progress.channel)
      .catch((error: unknown) => this.logger.error({ msg: 'account events subscription failed', error: String(error) }));
  }

  private async close(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = null;
    if (subscriber) await subscriber.quit().catch(() => subscriber.disconnect());
  }
}
