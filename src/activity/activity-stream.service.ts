import { Inject, Injectable, MessageEvent } from '@nestjs/common';
import { concatMap, from, interval, map, merge, Observable } from 'rxjs';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { StreamLifecycle } from '../common/wire/stream-lifecycle.service';
import { ActivityFeedService } from './activity-feed.service';
import { ActivityRecorder } from './activity-recorder';

/** `activity.streamGlobalFeed`: each event as the update that found it commits, between heartbeats. */
@Injectable()
export class ActivityStreamService {
  constructor(
    private readonly recorder: ActivityRecorder,
    private readonly feed: ActivityFeedService,
    private readonly lifecycle: StreamLifecycle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  open(): Observable<MessageEvent> {
    const heartbeats = interval(this.config.streamHeartbeatMs).pipe(
      map((n): MessageEvent => ({ type: 'activity-heartbeat', data: { heartbeat: n + 1 } })),
    );
    const events = this.recorder.channel.listen().pipe(
      concatMap((announcement) => from(this.feed.byIds(announcement.ids))),
      concatMap((list) => from(list.map((event): MessageEvent => ({ type: 'activity-emitted', data: event })))),
    );
    return merge(heartbeats, events).pipe(this.lifecycle.untilShutdown());
  }
}
