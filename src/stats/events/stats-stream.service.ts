import { Inject, Injectable, MessageEvent } from '@nestjs/common';
import { merge, Observable } from 'rxjs';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { StatsService } from '../stats.service';
import { heartbeats } from '../../common/wire/heartbeats';
import { StreamLifecycle } from '../../common/wire/stream-lifecycle.service';
import { StatsDelta, StatsEvents } from './stats-events';

/** `stats.subscribe`: a snapshot of the totals first, then every committed delta, between heartbeats. */
@Injectable()
export class StatsStreamService {
  constructor(
    private readonly stats: StatsService,
    private readonly events: StatsEvents,
    private readonly lifecycle: StreamLifecycle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  open(): Observable<MessageEvent> {
    const beats = heartbeats('stats-heartbeat', this.config.streamHeartbeatMs);
    return merge(this.snapshotThenDeltas(), beats).pipe(this.lifecycle.untilShutdown());
  }

  /**
   * Reads the snapshot once the subscription is active, so no delta is lost in between; deltas published
   * before the read began are already in the snapshot and are dropped.
   */
  private snapshotThenDeltas(): Observable<MessageEvent> {
    const updated = (delta: StatsDelta): MessageEvent => ({ type: 'stats-updated', data: delta });
    return new Observable<MessageEvent>((observer) => {
      const early: StatsDelta[] = [];
      let live = false;
      const subscription = this.events.stream().subscribe((delta) => (live ? observer.next(updated(delta)) : early.push(delta)));
      const begin = async () => {
        await this.events.ready();
        const startedAt = new Date().toISOString();
        const snapshot = await this.stats.getStats();
        observer.next({ type: 'stats-snapshot', data: { $schema: `${this.config.publicBaseUrl}/schemas/V1Stats.json`, ...snapshot } });
        for (const delta of early) if (delta.date >= startedAt) observer.next(updated(delta));
        live = true;
      };
      begin().catch((error: unknown) => observer.error(error));
      return () => subscription.unsubscribe();
    });
  }
}
