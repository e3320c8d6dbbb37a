import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { V1AccountBadgeOwnedBadgesResponseBody, V1AccountListCraftedLevelsResponseBody } from './dto/own-badges.dto';
import { OwnBadgesService } from './own-badges.service';
import { InventorySetsService } from './inventory-sets.service';
import { V1AccountListInventorySetsResponseBody } from './dto/inventory-sets.dto';

/** Operations on the caller's own account: the request names no account, the credential does. */
@ApiTags('account')
@Controller('v1')
export class OwnAccountController {
  constructor(
    private readonly badges: OwnBadgesService,
    private readonly inventory: InventorySetsService,
  ) {}

  @WireOperation({
    operationId: 'account.listOwnedBadges',
    summary: 'Badges of the calling account',
    description: 'The account is the credential’s (a session’s user, or the owner of an API key).',
    auth: 'any',
    response: V1AccountBadgeOwnedBadgesResponseBody,
    errors: [400, 401, 404, 500],
    noBody: true,
  })
  listOwnedBadges(@CurrentPrincipal() principal: Principal): Promise<V1AccountBadgeOwnedBadgesResponseBody> {
    return this.badges.ownedBadges(principal.accountId);
  }

  @WireOperation({
    operationId: 'account.listCraftedLevels',
    summary: 'Highest crafted badge level per app of the calling account',
    description:
      'The account is the caller’s (the account its API key or session belongs to): per app the highest normal badge ' +
      'level, and the apps with a foil badge, as of `badgesUpdatedAt`.',
    auth: 'any',
    response: V1AccountListCraftedLevelsResponseBody,
    errors: [400, 401, 404, 500],
    noBody: true,
  })
  listCraftedLevels(@CurrentPrincipal() principal: Principal): Promise<V1AccountListCraftedLevelsResponseBody> {
    return this.badges.craftedLevels(principal.accountId);
  }

  @WireOperation({
    operationId: 'account.listInventorySets',
    summary: 'Trading-card sets of the calling account',
    description: 'Cards per app and the complete sets they make. `inventoryUpdatedAt` is Unix ms, `nextRefreshAt` Unix s.',
    auth: 'any',
    response: V1AccountListInventorySetsResponseBody,
    errors: [400, 401, 404, 500],
    noBody: true,
  })
  listInventorySets(@CurrentPrincipal() principal: Principal): Promise<V1AccountListInventorySetsResponseBody> {
    return this.inventory.list(principal.accountId);
  }
}
