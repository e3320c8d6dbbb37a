import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { DesignTag } from './tags.dto';

const badgeIdProperty = (description?: string) =>
  ApiProperty({ maxLength: 14, pattern: '^bdg_\\d{1,10}$', example: 'bdg_123', ...(description ? { description } : {}) });
const colorIds = (description: string) =>
  ApiPropertyOptional({ type: 'array', items: { type: 'string', maxLength: 64 }, maxItems: 20, nullable: true, description });

// badge.suggestTags

export class V1BadgeSuggestTagsRequestBody {
  @badgeIdProperty('The ID of the badge to suggest tags for') badgeId: string;
}

export class BadgeSuggestTags {
  @ApiProperty({ type: [String], nullable: true, description: 'Colour tag ids, most likely first.' }) colors: string[] | null;
  @ApiProperty({ type: [String], nullable: true, description: 'Design tag ids, most likely first.' }) designs: string[] | null;
}

// badge.claimTagReviews

export class BadgeClaimTagReviewsRequestBody {
  @ApiPropertyOptional({ minimum: 1, maximum: 50, default: 10, description: 'Maximum number of reviews to claim. Defaults to 10.' })
  limit?: number;
}

export class BadgeClaimTagReviewsColorSuggestion {
  @ApiProperty({ description: 'Share of the app’s other badges that carry this colour (0–1).' }) coverage: number;
  @ApiProperty() id: string;
}

export class BadgeClaimTagReviewsDesignSuggestion {
  @ApiProperty({ description: 'Share of the app’s other badges that carry this design (0–1).' }) confidence: number;
  @ApiProperty() id: string;
}

export class BadgeClaimTagReviewsSuggestions {
  @ApiProperty({
    description: 'This prediction was sampled for scout audit instead of being auto-confirmed (never: no auto-confirm tier).',
  })
  autoAudit: boolean;
  @ApiProperty({
    type: [BadgeClaimTagReviewsColorSuggestion],
    nullable: true,
    description: 'Already confirmed by the enabled auto-confirm color tier (none is enabled: empty).',
  })
  autoColors: BadgeClaimTagReviewsColorSuggestion[] | null;
  @ApiProperty({
    type: [BadgeClaimTagReviewsDesignSuggestion],
    nullable: true,
    description: 'Already confirmed by the enabled auto-confirm design tier (none is enabled: empty).',
  })
  autoDesigns: BadgeClaimTagReviewsDesignSuggestion[] | null;
  @ApiProperty({ type: [BadgeClaimTagReviewsColorSuggestion], nullable: true }) colors: BadgeClaimTagReviewsColorSuggestion[] | null;
  @ApiProperty({ type: [BadgeClaimTagReviewsDesignSuggestion], nullable: true }) designs: BadgeClaimTagReviewsDesignSuggestion[] | null;
  @ApiProperty({ type: [String], nullable: true, description: 'New design names proposed (none: suggestions name existing tags).' })
  proposedDesigns: string[] | null;
}

export class BadgeClaimTagReviewsBadge {
  @ApiProperty() badgeId: string;
  @ApiProperty({ type: String, format: 'date-time', description: 'The claim ends then; the review is free for others after it.' })
  claimedUntil: Date;
  @ApiProperty() imageUrl: string;
  @ApiProperty() isFoil: boolean;
  @ApiProperty() level: number;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Number of tracked accounts that crafted this badge.' }) scarcity: number;
  @ApiProperty({ type: BadgeClaimTagReviewsSuggestions }) suggestions: BadgeClaimTagReviewsSuggestions;
}

export class BadgeClaimTagReviewsApp {
  @ApiProperty({ description: 'The app (0 for special badges, which have none).' }) appId: number;
  @ApiProperty() appName: string;
  @ApiProperty({ type: [BadgeClaimTagReviewsBadge], nullable: true }) badges: BadgeClaimTagReviewsBadge[] | null;
}

export class BadgeClaimTagReviewsColor {
  @ApiProperty({ type: [String], nullable: true }) hex: string[] | null;
  @ApiProperty() id: string;
  @ApiProperty() name: string;
}

export class BadgeClaimTagReviewsDesign {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
}

export class BadgeClaimTagReviewsResponseBody {
  @ApiProperty({ type: [BadgeClaimTagReviewsApp], nullable: true, description: 'The claimed reviews, by app.' })
  apps: BadgeClaimTagReviewsApp[] | null;
  @ApiProperty({ type: [BadgeClaimTagReviewsColor], nullable: true, description: 'Every colour tag.' }) colors:
    BadgeClaimTagReviewsColor[] | null;
  @ApiProperty({ type: [BadgeClaimTagReviewsDesign], nullable: true, description: 'Every design tag.' }) designs:
    BadgeClaimTagReviewsDesign[] | null;
  @ApiProperty({ type: [BadgeClaimTagReviewsDesign], nullable: true, description: 'Every metadata tag.' }) metadata:
    BadgeClaimTagReviewsDesign[] | null;
}

// badge.submitTagReview

export class BadgeSubmitTagReviewDesign {
  @ApiPropertyOptional({ maxLength: 64 }) id?: string;
  @ApiPropertyOptional({ minLength: 2, maxLength: 40 }) name?: string;
}

export class BadgeSubmitTagReviewRequestBody {
  @badgeIdProperty() badgeId: string;
  @colorIds('Final color tag IDs.') colors?: string[] | null;
  @ApiPropertyOptional({
    type: [BadgeSubmitTagReviewDesign],
    maxItems: 20,
    nullable: true,
    description: 'Final designs, selected by ID or created by name.',
  })
  @Type(() => BadgeSubmitTagReviewDesign)
  designs?: BadgeSubmitTagReviewDesign[] | null;
  @ApiPropertyOptional({
    type: [BadgeSubmitTagReviewDesign],
    maxItems: 20,
    nullable: true,
    description: 'Final non-visual metadata, selected by ID or created by name.',
  })
  @Type(() => BadgeSubmitTagReviewDesign)
  metadata?: BadgeSubmitTagReviewDesign[] | null;
  @ApiPropertyOptional({ description: 'Close the review without changing the tags.' }) skip?: boolean;
  @ApiPropertyOptional({ maxLength: 200 }) skipReason?: string;
}

export class BadgeSubmitTagReviewTag {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
}

export class BadgeSubmitTagReviewResponseBody {
  @ApiProperty({ type: [BadgeSubmitTagReviewTag], nullable: true }) colors: BadgeSubmitTagReviewTag[] | null;
  @ApiProperty({ type: [BadgeSubmitTagReviewTag], nullable: true }) designs: BadgeSubmitTagReviewTag[] | null;
  @ApiProperty({ type: [BadgeSubmitTagReviewTag], nullable: true }) metadata: BadgeSubmitTagReviewTag[] | null;
  @ApiProperty({ description: 'Opaque optimistic-concurrency token for this review state. Pass it as expectedReviewVersion to revise.' })
  reviewVersion: string;
  @ApiProperty() skipped: boolean;
}

// badge.reviseTagReview

export class BadgeReviseTagReviewDesign {
  @ApiPropertyOptional({ maxLength: 64 }) id?: string;
  @ApiPropertyOptional({ minLength: 2, maxLength: 40 }) name?: string;
}

export class BadgeReviseTagReviewRequestBody {
  @badgeIdProperty() badgeId: string;
  @colorIds('Complete desired color tag IDs. An empty array removes every color.') colors?: string[] | null;
  @ApiPropertyOptional({
    type: [BadgeReviseTagReviewDesign],
    maxItems: 20,
    nullable: true,
    description: 'Complete desired designs, selected by ID or created by name. An empty array removes every design.',
  })
  @Type(() => BadgeReviseTagReviewDesign)
  designs?: BadgeReviseTagReviewDesign[] | null;
  @ApiProperty({
    maxLength: 32,
    description: 'The reviewVersion returned by the review being corrected. A stale token is rejected with 409.',
  })
  expectedReviewVersion: string;
  @ApiPropertyOptional({
    type: [BadgeReviseTagReviewDesign],
    maxItems: 20,
    nullable: true,
    description: 'Complete desired non-visual metadata, selected by ID or created by name. An empty array removes every metadata tag.',
  })
  @Type(() => BadgeReviseTagReviewDesign)
  metadata?: BadgeReviseTagReviewDesign[] | null;
}

export class BadgeReviseTagReviewTag {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
}

export class BadgeReviseTagReviewResponseBody {
  @ApiProperty({ type: [BadgeReviseTagReviewTag], nullable: true }) colors: BadgeReviseTagReviewTag[] | null;
  @ApiProperty({ type: [BadgeReviseTagReviewTag], nullable: true }) designs: BadgeReviseTagReviewTag[] | null;
  @ApiProperty({ type: [BadgeReviseTagReviewTag], nullable: true }) metadata: BadgeReviseTagReviewTag[] | null;
  @ApiProperty({ description: 'Opaque optimistic-concurrency token for the corrected review state. Pass it to make another correction.' })
  reviewVersion: string;
  @ApiProperty() skipped: boolean;
}

// badge.tagBadge

export class SetRemoveColorTag {
  @ApiProperty({ maxLength: 64, description: 'The id of the color', example: 'col_red' }) id: string;
  @ApiProperty({ description: 'Whether to remove the color or not', example: false }) remove: boolean;
}

export class SetRemoveDesignTag {
  @ApiPropertyOptional({ type: String, maxLength: 64, nullable: true, description: 'The id of the design/color' }) id?: string | null;
  @ApiPropertyOptional({
    type: String,
    minLength: 2,
    maxLength: 40,
    nullable: true,
    description: 'The tag to add to the database',
    example: 'cat',
  })
  name?: string | null;
  @ApiPropertyOptional({ description: 'Whether to remove the tag or not', example: false }) remove?: boolean;
}

export class V1BadgeTagBadgeRequestBody {
  @badgeIdProperty('The badge id') badgeId: string;
  @ApiProperty({ type: [SetRemoveColorTag], maxItems: 20, nullable: true, description: 'Colors to add or remove' })
  @Type(() => SetRemoveColorTag)
  colors: SetRemoveColorTag[] | null;
  @ApiProperty({ type: [SetRemoveDesignTag], maxItems: 20, nullable: true, description: 'Visual designs to add or remove' })
  @Type(() => SetRemoveDesignTag)
  designs: SetRemoveDesignTag[] | null;
  @ApiProperty({ type: [SetRemoveDesignTag], maxItems: 20, nullable: true, description: 'Non-visual metadata to add or remove' })
  @Type(() => SetRemoveDesignTag)
  metadata: SetRemoveDesignTag[] | null;
}

export class CurrentColorTag {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
}

export class V1BadgeTagBadgeResponseBody {
  @ApiProperty({ type: [CurrentColorTag], nullable: true, description: "The badge's color tags" }) colorTags: CurrentColorTag[] | null;
  @ApiProperty({ type: [DesignTag], nullable: true, description: "The badge's visual design tags" }) designTags: DesignTag[] | null;
  @ApiProperty({ type: [DesignTag], nullable: true, description: "The badge's non-visual metadata tags" }) metadataTags: DesignTag[] | null;
}
