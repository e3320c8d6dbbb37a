import { Inject, Injectable, MessageEvent } from '@nestjs/common';
import { from, Observable } from 'rxjs';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { heartbeats } from '../../common/wire/heartbeats';
import { StreamLifecycle } from '../../common/wire/stream-lifecycle.service';
import { openResumableStream } from '../../common/replay/resumable-stream';
import { AccountEventsService } from './account-events.service';

/** What a client refetches when its stream of an account cannot resume. */
export const ACCOUNT_RESYNC_REFETCH = ['account.updateProgress', 'account.getInfo', 'account.getViewStats'];

/**
 * Builds the event stream of one account: heartbeats, status changes, update progress and view ticks. The events
 * are the entries of the account's replay log as the publishers wrote them (UpdateProgressService decides the
 * status changes), so a resumed stream sends exactly what a connected one did.
 */
@Injectable()
export class AccountStreamService {
  constructor(
    private readonly events: AccountEventsService,
    private readonly lifecycle: StreamLifecycle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The account must be known (tracked, or on the platform); KnownAccountGuard checks it before the stream starts. */
  async open(accountId: number, lastEventId?: string): Promise<Observable<MessageEvent>> {
    const stream = await openResumableStream({
      tail: this.events.tail(accountId),
      lastEventId,
      refetch: ACCOUNT_RESYNC_REFETCH,
      render: (entries) => from(entries.map((entry): MessageEvent => ({ type: entry.event, id: entry.id, data: entry.data }))),
      heartbeats: heartbeats('heartbeat', this.config.streamHeartbeatMs, { now: true }),
    });
    return stream.pipe(this.lifecycle.untilShutdown());
  }
}
