import { Inject, Injectable, MessageEvent } from '@nestjs/common';
import { defer, from, map, Observable } from 'rxjs';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { StatsService } from '../stats.service';
import { heartbeats } from '../../common/wire/heartbeats';
import { StreamLifecycle } from '../../common/wire/stream-lifecycle.service';
import { openResumableStream } from '../../common/replay/resumable-stream';
import { StatsEvents } from './stats-events';

/**
 * `stats.subscribe`: a snapshot of the totals first, then every committed delta, between heartbeats. A client
 * that resumes (`Last-Event-ID`) gets the deltas it missed and no new snapshot: its totals plus those deltas are
 * current. A new stream, or one that cannot resume, gets a snapshot whose id is the log's position when it was
 * read: the deltas after that id are sent live.
 */
@Injectable()
export class StatsStreamService {
  constructor(
    private readonly stats: StatsService,
    private readonly events: StatsEvents,
    private readonly lifecycle: StreamLifecycle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async open(lastEventId?: string): Promise<Observable<MessageEvent>> {
    const stream = await openResumableStream({
      tail: this.events.tail,
      lastEventId,
      refetch: [],
      start: (position) =>
        defer(() => from(this.stats.getStats())).pipe(
          map((snapshot): MessageEvent => ({
            type: 'stats-snapshot',
            id: position,
            data: { $schema: `${this.config.publicBaseUrl}/schemas/V1Stats.json`, ...snapshot },
          })),
        ),
      render: (entries) => from(entries.map((entry): MessageEvent => ({ type: entry.event, id: entry.id, data: entry.data }))),
      heartbeats: heartbeats('stats-heartbeat', this.config.streamHeartbeatMs),
    });
    return stream.pipe(this.lifecycle.untilShutdown());
  }
}
