import { Controller, MessageEvent, Query, UseGuards } from '@nestjs/common';
import { ApiExtraModels, ApiTags } from '@nestjs/swagger';
import { Observable } from 'rxjs';
import { StreamHeartbeat } from '../common/wire/stream-events.dto';
import { WireStream } from '../common/wire/wire-operation.decorator';
import { LastEventId } from '../common/replay/last-event-id.decorator';
import { AccountSubscribeQuery } from './dto/account-subscribe.dto';
import { AccountStreamService } from './events/account-stream.service';
import { KnownAccountGuard } from './events/known-account.guard';
import { AccountUpdatedEvent, AccountUpdateProgressEvent, AccountViewTickEvent, AccountWatchFiredEvent } from './dto/account-events.dto';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';

@ApiTags('account')
@Controller('v1')
export class AccountStreamController {
  constructor(private readonly streams: AccountStreamService) {}

  @WireStream({
    operationId: 'account.subscribe',
    summary: 'Event stream of per-account updates',
    description:
      'Live updates of one account: its queue and update status, every step of an update run, and its profile views. ' +
      'An account the platform knows but this service has not refreshed yet can be subscribed to: the stream waits ' +
      'for its first update (queue one with `account.queueUpdate`). An account the platform does not know → 404.',
    auth: 'any',
    errors: [400, 401, 403, 404, 422, 500],
    exampleQuery: '?accountId=1',
    resync:
      'Its `refetch` names `account.updateProgress`, `account.getInfo` and `account.getViewStats`. An account’s buffer exists while a ' +
      'stream of it is open and 5 minutes after the last one closed.',
    events: [
      { name: 'heartbeat', data: StreamHeartbeat, when: 'at once, then every `STREAM_HEARTBEAT_MS` (15 s).', example: { heartbeat: 1 } },
      {
        name: 'account-updated',
        data: AccountUpdatedEvent,
        when: 'the queue or update status changed (`pending`, `in_progress`, `completed`, `failed`), or a new run began.',
        example: { accountId: 1, status: 'pending' },
      },
      { name: 'account-update-progress', data: AccountUpdateProgressEvent, when: 'a step of an update run started or finished.' },
      { name: 'account-view-tick', data: AccountViewTickEvent, when: 'the profile was viewed.', example: { accountId: 1, totalDelta: 1 } },
      {
        name: 'watch-fired',
        data: AccountWatchFiredEvent,
        when: 'one of the account’s own watches fired (`account.createWatch`, an extension); only on streams opened with a credential of the account itself.',
      },
    ],
  })
  // The query's schema is a component of the document too: the validation pipe checks the query against it.
  @ApiExtraModels(AccountSubscribeQuery)
  @UseGuards(KnownAccountGuard)
  subscribe(
    @Query() query: AccountSubscribeQuery,
    @LastEventId() lastEventId: string | undefined,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Observable<MessageEvent>> {
    return this.streams.open(query.accountId, lastEventId, principal?.accountId);
  }
}
