import { Injectable } from '@nestjs/common';
import { UpdateProgressService } from '../account-records/progress/update-progress.service';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher.service';
import { eventId } from '../webhooks/webhook-events';
import { AccountWatchEntity } from './entities/account-watch.entity';
import { toWatch } from './mappers/watch.mapper';

/** The columns of a watch row under the entity's field names, for raw `RETURNING` / `SELECT`. */
export const WATCH_COLUMNS = `watch_id AS "watchId", account_id AS "accountId", kind, target, params, last_value AS "lastValue",
  created_at AS "createdAt", fired_at AS "firedAt", fired`;

/** The `account.subscribe` event of a fired watch; AccountStreamService sends it only to the owner's own streams. */
export const WATCH_FIRED_STREAM_EVENT = 'watch-fired';

/**
 * Sends a watch that just fired (its row already committed with `fired_at`): a `watch.fired` webhook event to the
 * owner's developer apps' endpoints, its id derived from the watch (a watch fires once, so one event per watch
 * whoever sends it), and a `watch-fired` entry on the owner's `account.subscribe` replay log (kept only while a
 * stream of the owner is open, as every per-account event).
 */
@Injectable()
export class WatchDelivery {
  constructor(
    private readonly dispatcher: WebhookDispatcher,
    private readonly progress: UpdateProgressService,
  ) {}

  async deliver(row: AccountWatchEntity): Promise<void> {
    const watch = toWatch(row);
    const data = { accountId: row.accountId, watch };
    await this.dispatcher.dispatch(
      { id: eventId('watch.fired', row.watchId), type: 'watch.fired', createdAt: watch.firedAt ?? new Date().toISOString(), data },
      { ownedBy: row.accountId },
    );
    await this.progress
      .accountLog(row.accountId)
      .append(this.progress.channel, { type: 'watch', accountId: row.accountId }, [{ event: WATCH_FIRED_STREAM_EVENT, data }]);
  }
}
