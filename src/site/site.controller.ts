import { Controller, Inject, MessageEvent } from '@nestjs/common';
import { ApiExtraModels, ApiTags } from '@nestjs/swagger';
import { defer, from, map, Observable } from 'rxjs';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { heartbeats } from '../common/wire/heartbeats';
import { StreamLifecycle } from '../common/wire/stream-lifecycle.service';
import { StreamHeartbeat } from '../common/wire/stream-events.dto';
import { WireStream } from '../common/wire/wire-operation.decorator';
import { LastEventId } from '../common/replay/last-event-id.decorator';
import { openResumableStream } from '../common/replay/resumable-stream';
import { MaintenanceChangedEvent, MaintenanceEvent } from './dto/maintenance.dto';
import { MaintenanceService } from './maintenance.service';

@ApiTags('site')
@ApiExtraModels(MaintenanceEvent)
@Controller('v1')
export class SiteController {
  constructor(
    private readonly maintenance: MaintenanceService,
    private readonly lifecycle: StreamLifecycle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @WireStream({
    operationId: 'site.subscribe',
    summary: 'Site-wide broadcasts (maintenance, announcements)',
    description: 'Operator broadcasts (CLI `maintenance …`): the full current set on connect and after every change.',
    auth: 'optional',
    errors: [500],
    resync: 'Its `refetch` is empty: the full current set follows at once.',
    events: [
      {
        name: 'maintenance-changed',
        data: MaintenanceChangedEvent,
        when:
          'first, at once (unless the stream resumes), then after every change: the full current set. A resumed stream that missed ' +
          'changes is sent the current set once.',
        example: { items: [] },
      },
      { name: 'heartbeat', data: StreamHeartbeat, when: 'every `STREAM_HEARTBEAT_MS` (15 s).', example: { heartbeat: 1 } },
    ],
  })
  async subscribe(@LastEventId() lastEventId: string | undefined): Promise<Observable<MessageEvent>> {
    // Each change entry only says "changed": the set is read when sent, once per batch of changes (the newest id).
    const current = (id: string) =>
      defer(() => from(this.maintenance.current())).pipe(
        map((items): MessageEvent => ({ type: 'maintenance-changed', id, data: { items } })),
      );
    const stream = await openResumableStream({
      tail: this.maintenance.tail,
      lastEventId,
      refetch: [],
      start: current,
      render: (entries) => current(entries[entries.length - 1].id),
      heartbeats: heartbeats('heartbeat', this.config.streamHeartbeatMs),
    });
    return stream.pipe(this.lifecycle.untilShutdown());
  }
}
