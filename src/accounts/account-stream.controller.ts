import { Controller, MessageEvent, Query, UseGuards } from '@nestjs/common';
import { ApiExtraModels, ApiTags } from '@nestjs/swagger';
import { Observable } from 'rxjs';
import { WireStream } from '../common/wire/wire-operation.decorator';
import { AccountSubscribeQuery } from './dto/account-subscribe.dto';
import { AccountStreamService } from './events/account-stream.service';
import { TrackedAccountGuard } from './events/tracked-account.guard';

@ApiTags('account')
@Controller('v1')
export class AccountStreamController {
  constructor(private readonly streams: AccountStreamService) {}

  @WireStream({
    operationId: 'account.subscribe',
    summary: 'Event stream of per-account updates',
    auth: 'any',
    errors: [400, 401, 403, 404, 422, 500],
    events: [
      '- `heartbeat`: `{heartbeat: int}`, a counter, every `STREAM_HEARTBEAT_MS`',
      '- `account-updated`: `{accountId, status}` when the queue or update status changes (`pending`, `in_progress`, `completed`, `failed`)',
      '- `account-update-progress`: `{progress: UpdateProgress}` at every step of an update',
    ].join('\n'),
  })
  // The query's schema is a component of the document too: the validation pipe checks the query against it.
  @ApiExtraModels(AccountSubscribeQuery)
  @UseGuards(TrackedAccountGuard)
  subscribe(@Query() query: AccountSubscribeQuery): Observable<MessageEvent> {
    return this.streams.open(query.accountId);
  }
}
