import { Controller, Inject, MessageEvent } from '@nestjs/common';
import { ApiExtraModels, ApiTags } from '@nestjs/swagger';
import { defer, from, map, merge, mergeMap, Observable } from 'rxjs';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { heartbeats } from '../common/wire/heartbeats';
import { StreamLifecycle } from '../common/wire/stream-lifecycle.service';
import { StreamHeartbeat } from '../common/wire/stream-events.dto';
import { WireStream } from '../common/wire/wire-operation.decorator';
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
    events: [
      {
        name: 'maintenance-changed',
        data: MaintenanceChangedEvent,
        when: 'first, at once, then after every change: the full current set.',
        example: { items: [] },
      },
      { name: 'heartbeat', data: StreamHeartbeat, when: 'every `STREAM_HEARTBEAT_MS` (15 s).', example: { heartbeat: 1 } },
    ],
  })
  subscribe(): Observable<MessageEvent> {
    const snapshot = () =>
      defer(() => from(this.maintenance.current())).pipe(map((items): MessageEvent => ({ type: 'maintenance-changed', data: { items } })));
    // Listen first; the first snapshot is read once the subscription is active, so no change falls in between.
    const updates = this.maintenance.changes.listen().pipe(mergeMap(() => snapshot()));
    const first = defer(() => from(this.maintenance.changes.ready())).pipe(mergeMap(() => snapshot()));
    return merge(updates, first, heartbeats('heartbeat', this.config.streamHeartbeatMs)).pipe(this.lifecycle.untilShutdown());
  }
}
