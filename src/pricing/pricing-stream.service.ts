import { Inject, Injectable, MessageEvent } from '@nestjs/common';
import { from, Observable } from 'rxjs';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { heartbeats } from '../common/wire/heartbeats';
import { StreamLifecycle } from '../common/wire/stream-lifecycle.service';
import { openResumableStream } from '../common/replay/resumable-stream';
import { PriceTicks } from './price-ticks';

/**
 * `badge.pricing.subscribe`: every price change the pricing job publishes, to every subscriber (clients filter on
 * their side), between heartbeats. A new stream replays nothing (the stored prices are what the badge reads
 * serve); a reconnecting one (`Last-Event-ID`) gets the ticks it missed.
 */
@Injectable()
export class PricingStreamService {
  constructor(
    private readonly ticks: PriceTicks,
    private readonly lifecycle: StreamLifecycle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async open(lastEventId?: string): Promise<Observable<MessageEvent>> {
    const stream = await openResumableStream({
      tail: this.ticks.tail,
      lastEventId,
      refetch: ['app.listBadges'],
      render: (entries) => from(entries.map((entry): MessageEvent => ({ type: entry.event, id: entry.id, data: entry.data }))),
      heartbeats: heartbeats('heartbeat', this.config.streamHeartbeatMs),
    });
    return stream.pipe(this.lifecycle.untilShutdown());
  }
}
