import { Inject, Injectable, MessageEvent } from '@nestjs/common';
import { map, merge, Observable } from 'rxjs';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { heartbeats } from '../common/wire/heartbeats';
import { StreamLifecycle } from '../common/wire/stream-lifecycle.service';
import { PriceTicks } from './price-ticks';

/**
 * `badge.pricing.subscribe`: every price change the pricing job publishes, to every subscriber (clients filter on
 * their side), between heartbeats. Nothing is replayed on connect: the stored prices are what the badge reads serve.
 */
@Injectable()
export class PricingStreamService {
  constructor(
    private readonly ticks: PriceTicks,
    private readonly lifecycle: StreamLifecycle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  open(): Observable<MessageEvent> {
    const ticks = this.ticks.stream().pipe(map((tick): MessageEvent => ({ type: 'market-price-tick', data: tick })));
    return merge(ticks, heartbeats('heartbeat', this.config.streamHeartbeatMs)).pipe(this.lifecycle.untilShutdown());
  }
}
