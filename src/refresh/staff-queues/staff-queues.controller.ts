import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequireStaff } from '../../common/auth/require-role.decorator';
import { WireOperation } from '../../common/wire/wire-operation.decorator';
import {
  MAX_QUEUED_IDS,
  V1AccountQueueInventoryRefreshRequestBody,
  V1AppQueueUpdateRequestBody,
  V1GroupQueueUpdateRequestBody,
} from './staff-queues.dto';
import { APP_REQUEUE_COOLDOWN_SECONDS, CALLS_PER_ACCOUNT_UPDATE, StaffQueuesService } from './staff-queues.service';

const STAFF = `For staff (roles staff, owner, developer; others 403). At most ${MAX_QUEUED_IDS} ids.`;

/** Staff operations that queue refreshes of many apps, groups or accounts at once. */
@Controller('v1')
export class StaffQueuesController {
  constructor(private readonly queues: StaffQueuesService) {}

  @ApiTags('app')
  @RequireStaff()
  @WireOperation({
    operationId: 'app.queueUpdate',
    summary: 'Queue app update',
    description:
      `${STAFF} Puts each app at the head of the market pricing walk: the next pricing cycle reads its card set and prices ` +
      `(paced by the market call limit). An app priced in the last ${APP_REQUEUE_COOLDOWN_SECONDS / 60} minutes, or one without ` +
      'known trading cards, is left as it is.',
    auth: 'any',
    errors: [400, 401, 403, 422, 500],
  })
  async queueApps(@Body() body: V1AppQueueUpdateRequestBody): Promise<void> {
    await this.queues.queueApps(body.appIds ?? []);
  }

  @ApiTags('group')
  @RequireStaff()
  @WireOperation({
    operationId: 'group.queueUpdate',
    summary: 'Queue group update',
    description:
      `${STAFF} Queues a refresh of each group (its members list page and the \`most_members\` board). A group already queued ` +
      'is queued once; one read within the group refresh interval is left as it is.',
    auth: 'any',
    errors: [400, 401, 403, 422, 500],
  })
  async queueGroups(@Body() body: V1GroupQueueUpdateRequestBody): Promise<void> {
    await this.queues.queueGroups(body.groupIds ?? []);
  }

  @ApiTags('account')
  @RequireStaff()
  @WireOperation({
    operationId: 'account.queueInventoryRefresh',
    summary: 'Queue inventory refresh',
    description:
      `${STAFF} Queues an update (which reads the inventory) of each tracked account, as account.queueUpdate without \`force\`: ` +
      'an account already queued, or updated within the cooldown, is left as it is; an account the service does not track is ' +
      `skipped. When the platform's daily call budget cannot cover ${CALLS_PER_ACCOUNT_UPDATE} calls per update, nothing is ` +
      'queued: 429 with `Retry-After` (the next UTC day).',
    auth: 'any',
    errors: [400, 401, 403, 422, 429, 500],
  })
  async queueAccounts(@Body() body: V1AccountQueueInventoryRefreshRequestBody): Promise<void> {
    await this.queues.queueAccounts(body.accountIds ?? []);
  }
}
