import { Controller, MessageEvent } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Observable } from 'rxjs';
import { StreamHeartbeat } from '../common/wire/stream-events.dto';
import { WireStream } from '../common/wire/wire-operation.decorator';
import { LastEventId } from '../common/replay/last-event-id.decorator';
import { MarketPriceTick } from './dto/market-price-tick.dto';
import { PricingStreamService } from './pricing-stream.service';

@ApiTags('badge')
@Controller('v1')
export class PricingStreamController {
  constructor(private readonly streams: PricingStreamService) {}

  @WireStream({
    operationId: 'badge.pricing.subscribe',
    summary: 'Event stream of badge pricing ticks; every tick is forwarded, clients filter',
    description: 'Every change the worker’s pricing job sees in the market price of an app’s normal or foil card set, as it happens.',
    auth: 'optional',
    errors: [500],
    resync: 'Its `refetch` names `app.listBadges` (the stored prices).',
    events: [
      { name: 'market-price-tick', data: MarketPriceTick, when: 'each time the market price of an app’s normal or foil card set changes.' },
      { name: 'heartbeat', data: StreamHeartbeat, when: 'every `STREAM_HEARTBEAT_MS` (15 s).', example: { heartbeat: 1 } },
    ],
  })
  subscribe(@LastEventId() lastEventId: string | undefined): Promise<Observable<MessageEvent>> {
    return this.streams.open(lastEventId);
  }
}
