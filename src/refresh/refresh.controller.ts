import { Body, Controller } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { AccountUpdateQueueService } from './account-update-queue.service';
import { V1AccountQueueUpdateRequest, V1AccountRefreshInventoryResponseBody } from './dto/refresh.dto';

/** The operations that start a refresh of an account from the platform. */
@ApiTags('account')
@Controller('v1')
export class RefreshController {
  constructor(private readonly updates: AccountUpdateQueueService) {}

  @WireOperation({
    operationId: 'account.queueUpdate',
    summary: 'Queue an update of an account',
    description:
      'Adds the account when it is new. A request while an update is queued or running changes nothing. Before `nextAllowedTime` → 429 with `Retry-After`. `force` skips the cooldown and is for staff only (403 otherwise).',
    auth: 'any',
    errors: [400, 401, 403, 404, 422, 429, 500],
  })
  @ApiHeader({
    name: 'X-Forwarded-For',
    required: false,
    description: 'Accepted for compatibility; the client address is that of the connection, or of trusted proxies (`TRUST_PROXY_HOPS`).',
  })
  queueUpdate(@Body() body: V1AccountQueueUpdateRequest, @CurrentPrincipal() principal: Principal): Promise<void> {
    return this.updates.queueUpdate(body, body.force ?? false, principal);
  }

  @WireOperation({
    operationId: 'account.refreshInventory',
    summary: 'Refresh the calling account’s inventory',
    description: 'Queues an update of the account, which reads the inventory; before the cooldown ends → 429 with `Retry-After`.',
    auth: 'any',
    response: V1AccountRefreshInventoryResponseBody,
    errors: [400, 401, 404, 429, 500],
    noBody: true,
  })
  refreshInventory(@CurrentPrincipal() principal: Principal): Promise<V1AccountRefreshInventoryResponseBody> {
    return this.updates.refreshInventory(principal);
  }
}
