import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../common/auth/auth.decorator';
import { Principal } from '../../common/auth/principal';
import { WireOperation } from '../../common/wire/wire-operation.decorator';
import {
  BadgeClaimTagReviewsRequestBody,
  BadgeClaimTagReviewsResponseBody,
  BadgeReviseTagReviewRequestBody,
  BadgeReviseTagReviewResponseBody,
  BadgeSubmitTagReviewRequestBody,
  BadgeSubmitTagReviewResponseBody,
  BadgeSuggestTags,
  V1BadgeSuggestTagsRequestBody,
  V1BadgeTagBadgeRequestBody,
  V1BadgeTagBadgeResponseBody,
} from '../dto/tag-reviews.dto';
import { BadgeTagsService } from '../tags/badge-tags.service';
import { CLAIM_SECONDS, TagReviewsService } from './tag-reviews.service';

const ROLES = 'For tag editors (roles badge_scout, staff, owner; others 403).';

/** The badge scouts' operations: suggestions, the review queue and single-tag edits. */
@ApiTags('badge')
@Controller('v1')
export class TagReviewsController {
  constructor(
    private readonly reviews: TagReviewsService,
    private readonly tags: BadgeTagsService,
  ) {}

  @WireOperation({
    operationId: 'badge.suggestTags',
    summary: 'Suggest tags for a badge',
    description: `${ROLES} Colours and designs carried by the app's other badges, most common first (none for a special badge).`,
    auth: 'any',
    response: BadgeSuggestTags,
    errors: [400, 401, 403, 404, 422, 500],
  })
  suggestTags(@Body() body: V1BadgeSuggestTagsRequestBody, @CurrentPrincipal() principal: Principal): Promise<BadgeSuggestTags> {
    return this.reviews.suggest(body.badgeId, principal.accountId);
  }

  @WireOperation({
    operationId: 'badge.claimTagReviews',
    summary: 'Claim badge tag reviews',
    description:
      `${ROLES} Claims up to \`limit\` open reviews for ${CLAIM_SECONDS / 60} minutes (\`claimedUntil\`), grouped by app, with ` +
      'suggestions and the tag vocabulary. Two scouts never hold the same review; the caller’s own live claims are renewed and ' +
      'returned again; an expired claim is free for anyone. An empty `apps` means no review is free.',
    auth: 'any',
    response: BadgeClaimTagReviewsResponseBody,
    errors: [400, 401, 403, 422, 500],
  })
  claimTagReviews(
    @Body() body: BadgeClaimTagReviewsRequestBody,
    @CurrentPrincipal() principal: Principal,
  ): Promise<BadgeClaimTagReviewsResponseBody> {
    return this.reviews.claim(body.limit, principal.accountId);
  }

  @WireOperation({
    operationId: 'badge.submitTagReview',
    summary: 'Submit a badge tag review',
    description:
      `${ROLES} Settles a review the caller claimed: the sets sent replace the badge’s (as badge.setTags), or \`skip\` closes it ` +
      'unchanged. A review not claimed by the caller, or already settled → 409. `reviewVersion` guards badge.reviseTagReview.',
    auth: 'any',
    response: BadgeSubmitTagReviewResponseBody,
    errors: [400, 401, 403, 409, 422, 500],
  })
  submitTagReview(
    @Body() body: BadgeSubmitTagReviewRequestBody,
    @CurrentPrincipal() principal: Principal,
  ): Promise<BadgeSubmitTagReviewResponseBody> {
    return this.reviews.submit(body, principal.accountId);
  }

  @WireOperation({
    operationId: 'badge.reviseTagReview',
    summary: 'Revise a completed badge tag review',
    description:
      `${ROLES} The scout who settled the review (or staff; another scout 403) replaces the sets sent. No settled review → 404; ` +
      'a stale `expectedReviewVersion` → 409.',
    auth: 'any',
    response: BadgeReviseTagReviewResponseBody,
    errors: [400, 401, 403, 404, 409, 422, 500],
  })
  reviseTagReview(
    @Body() body: BadgeReviseTagReviewRequestBody,
    @CurrentPrincipal() principal: Principal,
  ): Promise<BadgeReviseTagReviewResponseBody> {
    return this.reviews.revise(body, principal.accountId);
  }

  @WireOperation({
    operationId: 'badge.tagBadge',
    summary: 'Tag a badge',
    description: `${ROLES} Adds or removes single tags (\`remove\`); designs and metadata by \`id\` or by \`name\` (created when new).`,
    auth: 'any',
    response: V1BadgeTagBadgeResponseBody,
    errors: [400, 401, 403, 404, 422, 500],
  })
  tagBadge(@Body() body: V1BadgeTagBadgeRequestBody, @CurrentPrincipal() principal: Principal): Promise<V1BadgeTagBadgeResponseBody> {
    return this.tags.tagBadge(body, principal.accountId);
  }
}
