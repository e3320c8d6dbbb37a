import { Controller, MessageEvent } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Observable } from 'rxjs';
import { StreamHeartbeat } from '../common/wire/stream-events.dto';
import { WireStream } from '../common/wire/wire-operation.decorator';
import { LastEventId } from '../common/replay/last-event-id.decorator';
import { StatsUpdatedEvent } from './dto/stats-events.dto';
import { V1Stats } from './dto/v1-stats.dto';
import { StatsStreamService } from './events/stats-stream.service';

@ApiTags('stats')
@Controller('v1')
export class StatsStreamController {
  constructor(private readonly streams: StatsStreamService) {}

  @WireStream({
    operationId: 'stats.subscribe',
    summary: 'Event stream of platform stats: a snapshot, then deltas',
    description: 'The platform totals of `stats.getStats` as they change: a snapshot first, then every committed change as a delta.',
    auth: 'optional',
    errors: [500],
    resync:
      'Its `refetch` is empty: a new `stats-snapshot` follows at once. A resumed stream sends the missed `stats-updated` and no snapshot.',
    events: [
      {
        name: 'stats-snapshot',
        data: V1Stats,
        when: 'first, at once (with its `$schema`), unless the stream resumes; its id is the position of the deltas it includes.',
      },
      {
        name: 'stats-updated',
        data: StatsUpdatedEvent,
        when: 'each time queueing or an update commits; add the deltas to the snapshot’s counters.',
        example: { date: '2026-01-01T12:00:00.000Z', deltas: { accountsUpdated: 1, badges: 212 } },
      },
      { name: 'stats-heartbeat', data: StreamHeartbeat, when: 'every `STREAM_HEARTBEAT_MS` (15 s).', example: { heartbeat: 1 } },
    ],
  })
  subscribe(@LastEventId() lastEventId: string | undefined): Promise<Observable<MessageEvent>> {
    return this.streams.open(lastEventId);
  }
}
