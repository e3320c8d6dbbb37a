import { Controller, MessageEvent } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Observable } from 'rxjs';
import { WireStream } from '../common/wire/wire-operation.decorator';
import { StatsStreamService } from './events/stats-stream.service';

@ApiTags('stats')
@Controller('v1')
export class StatsStreamController {
  constructor(private readonly streams: StatsStreamService) {}

  @WireStream({
    operationId: 'stats.subscribe',
    summary: 'Event stream of platform stats: a snapshot, then deltas',
    auth: 'optional',
    errors: [500],
    events: [
      '- `stats-snapshot`: a `V1Stats`, first',
      '- `stats-updated`: `{date: date-time, deltas: {<V1Stats field>: int}}` each time queueing or an update commits; add the deltas to the counters',
      '- `stats-heartbeat`: `{heartbeat: int}`, a counter, every `STREAM_HEARTBEAT_MS`',
    ].join('\n'),
  })
  subscribe(): Observable<MessageEvent> {
    return this.streams.open();
  }
}
