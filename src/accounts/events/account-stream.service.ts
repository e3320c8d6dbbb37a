import { Inject, Injectable, MessageEvent } from '@nestjs/common';
import { distinctUntilChanged, filter, map, merge, Observable } from 'rxjs';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { heartbeats } from '../../common/wire/heartbeats';
import { StreamLifecycle } from '../../common/wire/stream-lifecycle.service';
import { AccountEventMessage, AccountEventsService } from './account-events.service';

type ProgressMessage = Extract<AccountEventMessage, { type: 'progress' }>;
type ViewMessage = Extract<AccountEventMessage, { type: 'view' }>;

/** Builds the event stream of one account: heartbeats, status changes and update progress. */
@Injectable()
export class AccountStreamService {
  constructor(
    private readonly events: AccountEventsService,
    private readonly lifecycle: StreamLifecycle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The account must be known (tracked, or on the platform); KnownAccountGuard checks it before the stream starts. */
  open(accountId: number): Observable<MessageEvent> {
    const beats = heartbeats('heartbeat', this.config.streamHeartbeatMs, { now: true });
    const messages = this.events.forAccount(accountId);
    const updates = messages.pipe(filter((message): message is ProgressMessage => message.type === 'progress'));
    const views = messages.pipe(
      filter((message): message is ViewMessage => message.type === 'view'),
      map((message): MessageEvent => ({ type: 'account-view-tick', data: { accountId, totalDelta: message.totalDelta } })),
    );
    const statusChanges = updates.pipe(
      distinctUntilChanged((a, b) => a.progress.runId === b.progress.runId && a.status === b.status),
      map((message): MessageEvent => ({ type: 'account-updated', data: { accountId, status: message.status } })),
    );
    const progress = updates.pipe(
      map((message): MessageEvent => ({ type: 'account-update-progress', data: { progress: message.progress } })),
    );
    return merge(beats, statusChanges, progress, views).pipe(this.lifecycle.untilShutdown());
  }
}
