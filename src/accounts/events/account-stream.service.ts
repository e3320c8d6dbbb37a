import { Inject, Injectable, MessageEvent } from '@nestjs/common';
import { from, Observable } from 'rxjs';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { heartbeats } from '../../common/wire/heartbeats';
import { StreamLifecycle } from '../../common/wire/stream-lifecycle.service';
import { openResumableStream } from '../../common/replay/resumable-stream';
import { AccountEventsService } from './account-events.service';

/** The events of the account's own watches (src/watches): sent only to streams opened by the account itself. */
export const OWN_ACCOUNT_EVENTS = new Set(['watch-fired']);

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

  /**
   * The account must be known (tracked, or on the platform); KnownAccountGuard checks it before the stream starts.
   * `callerAccountId`: the credential's account; the account's own events (OWN_ACCOUNT_EVENTS) are left out of
   * anyone else's stream (their entries are skipped, so resuming by id works the same).
   */
  async open(accountId: number, lastEventId?: string, callerAccountId?: number): Promise<Observable<MessageEvent>> {
    const own = callerAccountId === accountId;
    const stream = await openResumableStream({
      tail: this.events.tail(accountId),
      lastEventId,
      refetch: ACCOUNT_RESYNC_REFETCH,
      render: (entries) =>
        from(
          entries
            .filter((entry) => own || !OWN_ACCOUNT_EVENTS.has(entry.event))
            .map((entry): MessageEvent => ({ type: entry.event, id: entry.id, data: entry.data })),
        ),
      heartbeats: heartbeats('heartbeat', this.config.streamHeartbeatMs, { now: true }),
    });
    return stream.pipe(this.lifecycle.untilShutdown());
  }
}
