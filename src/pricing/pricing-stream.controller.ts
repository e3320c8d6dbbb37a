import { Controller, MessageEvent } from '@nestjs/common';
import { ApiExtraModels, ApiTags } from '@nestjs/swagger';
import { Observable } from 'rxjs';
import { WireStream } from '../common/wire/wire-operation.decorator';
import { MarketPriceTick } from './dto/market-price-tick.dto';
import { PricingStreamService } from './pricing-stream.service';

@ApiTags('badge')
@ApiExtraModels(MarketPriceTick)
@Controller('v1')
export class PricingStreamController {
  constructor(private readonly streams: PricingStreamService) {}

  @WireStream({
    operationId: 'badge.pricing.subscribe',
    summary: 'Event stream of badge pricing ticks; every tick is forwarded, clients filter',
    auth: 'optional',
    errors: [500],
    events: [
      '- `market-price-tick`: a `MarketPriceTick`, each time the market price of an app’s normal or foil card set changes',
      '- `heartbeat`: `{heartbeat: int}`, a counter, every `STREAM_HEARTBEAT_MS`',
    ].join('\n'),
  })
  subscribe(): Observable<MessageEvent> {
    return this.streams.open();
  }
}
