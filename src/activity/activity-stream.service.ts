import { Inject, Injectable, MessageEvent } from '@nestjs/common';
import { concatMap, from, merge, Observable } from 'rxjs';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { heartbeats } from '../common/wire/heartbeats';
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
    const beats = heartbeats('activity-heartbeat', this.config.streamHeartbeatMs, { now: true });
    const events = this.recorder.channel.listen().pipe(
      concatMap((announcement) => from(this.feed.byIds(announcement.ids))),
      concatMap((list) => from(list.map((event): MessageEvent => ({ type: 'activity-emitted', data: event })))),
    );
    return merge(beats, events).pipe(this.lifecycle.untilShutdown());
  }
}
