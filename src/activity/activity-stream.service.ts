import { Inject, Injectable, MessageEvent } from '@nestjs/common';
import { defer, from, mergeMap, Observable } from 'rxjs';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { heartbeats } from '../common/wire/heartbeats';
import { StreamLifecycle } from '../common/wire/stream-lifecycle.service';
import { ReplayEntry } from '../common/replay/replay-log';
import { openResumableStream } from '../common/replay/resumable-stream';
import { ActivityFeedService } from './activity-feed.service';
import { ActivityRecorder } from './activity-recorder';

/**
 * `activity.streamGlobalFeed`: each event as the update that found it commits, between heartbeats. The replay log
 * holds the events' ids; they are read from PostgreSQL when sent, live or replayed alike.
 */
@Injectable()
export class ActivityStreamService {
  constructor(
    private readonly recorder: ActivityRecorder,
    private readonly feed: ActivityFeedService,
    private readonly lifecycle: StreamLifecycle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async open(lastEventId?: string): Promise<Observable<MessageEvent>> {
    const stream = await openResumableStream({
      tail: this.recorder.tail,
      lastEventId,
      refetch: ['activity.listGlobalFeed'],
      render: (entries) => this.render(entries),
      heartbeats: heartbeats('activity-heartbeat', this.config.streamHeartbeatMs, { now: true }),
    });
    return stream.pipe(this.lifecycle.untilShutdown());
  }

  /** One query per batch; an event deleted since it was announced is skipped. */
  private render(entries: ReplayEntry[]): Observable<MessageEvent> {
    return defer(() => from(this.feed.byIdsKeyed(entries.map((entry) => entry.data)))).pipe(
      mergeMap((events) =>
        entries.flatMap((entry): MessageEvent[] => {
          const event = events.get(entry.data);
          return event ? [{ type: 'activity-emitted', id: entry.id, data: event }] : [];
        }),
      ),
    );
  }
}
