import { TIER_PAGE_SIZES } from '../account-records/donor-tiers';
import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { BadgeCraftersService } from './badge-crafters.service';
import {
  BadgeGetTagsRequestBody,
  BadgeGetTagsResponseBody,
  BadgeSetTagsRequestBody,
  BadgeSetTagsResponseBody,
  V1BadgeListTagsResponseBody,
} from './dto/tags.dto';
import { BadgeTagsService } from './tags/badge-tags.service';
import { BadgeListCraftersRequestBody, BadgeListCraftersResponseBody } from './dto/list-crafters.dto';

@ApiTags('badge')
@Controller('v1')
export class BadgesController {
  constructor(
    private readonly crafters: BadgeCraftersService,
    private readonly tags: BadgeTagsService,
  ) {}

  @WireOperation({
    operationId: 'badge.listCrafters',
    summary: 'Accounts that crafted a badge, earliest completion first',
    description: `Cursor paging. The page size (\`maxPageSize\`) is a donor perk, by the caller's donor tier: ${TIER_PAGE_SIZES}; a larger \`limit\` is clamped.`,
    auth: 'any',
    response: BadgeListCraftersResponseBody,
    errors: [400, 401, 403, 404, 422, 500, 503],
  })
  listCrafters(
    @Body() body: BadgeListCraftersRequestBody,
    @CurrentPrincipal() principal: Principal,
  ): Promise<BadgeListCraftersResponseBody> {
    return this.crafters.list(body, principal.accountId);
  }

  @WireOperation({
    operationId: 'badge.listTags',
    summary: 'The tag catalogue',
    description:
      'Every colour, design and metadata tag `badge.setTags` can choose from. Readable by any credential; editing ' +
      'needs a role (see `badge.getTags`).',
    auth: 'any',
    response: V1BadgeListTagsResponseBody,
    errors: [400, 401, 500],
    noBody: true,
  })
  listTags(): Promise<V1BadgeListTagsResponseBody> {
    return this.tags.catalogue();
  }

  @WireOperation({
    operationId: 'badge.getTags',
    summary: 'Tags of a badge, for editing',
    description: 'For tag editors (roles badge_scout, staff, owner; others 403). `tagsVersion` guards the next badge.setTags.',
    auth: 'any',
    response: BadgeGetTagsResponseBody,
    errors: [400, 401, 403, 404, 422, 500],
  })
  getTags(@Body() body: BadgeGetTagsRequestBody, @CurrentPrincipal() principal: Principal): Promise<BadgeGetTagsResponseBody> {
    return this.tags.get(body.badgeId, principal.accountId);
  }

  @WireOperation({
    operationId: 'badge.setTags',
    summary: 'Replace the tags of a badge',
    description:
      'Each set sent replaces that set (`[]` clears it); an omitted set is left as it is. Designs and metadata may be chosen by `id` or created by `name`. A stale `expectedTagsVersion` → 409.',
    auth: 'any',
    response: BadgeSetTagsResponseBody,
    errors: [400, 401, 403, 404, 409, 422, 500],
  })
  setTags(@Body() body: BadgeSetTagsRequestBody, @CurrentPrincipal() principal: Principal): Promise<BadgeSetTagsResponseBody> {
    return this.tags.set(body, principal.accountId);
  }
}
