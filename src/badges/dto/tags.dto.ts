import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';

const badgeIdProperty = () => ApiProperty({ maxLength: 14, pattern: '^bdg_\\d{1,10}$', example: 'bdg_123' });

export class ColorTag {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty() hsl: string;
  @ApiProperty() group: string;
  @ApiProperty({ type: 'string', nullable: true }) hex: string | null;
  @ApiProperty() groupOwner: boolean;
}

export class DesignTag {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
}

export class V1BadgeListTagsResponseBody {
  @ApiProperty({ type: [ColorTag], nullable: true }) colorTags: ColorTag[] | null;
  @ApiProperty({ type: [DesignTag], nullable: true, description: 'Visual designs.' }) designTags: DesignTag[] | null;
  @ApiProperty({ type: [DesignTag], nullable: true, description: 'Non-visual tags.' }) metadataTags: DesignTag[] | null;
}

export class BadgeTag {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
}

export class BadgeTagVocabularyColor {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: [String], nullable: true }) hex: string[] | null;
}

export class BadgeTagVocabulary {
  @ApiProperty({ type: [BadgeTagVocabularyColor], nullable: true }) colors: BadgeTagVocabularyColor[] | null;
  @ApiProperty({ type: [BadgeTag], nullable: true }) designs: BadgeTag[] | null;
  @ApiProperty({ type: [BadgeTag], nullable: true }) metadata: BadgeTag[] | null;
}

export class BadgeGetTagsRequestBody {
  @badgeIdProperty() badgeId: string;
}

export class BadgeGetTagsResponseBody {
  @ApiProperty() badgeId: string;
  @ApiProperty({ type: [BadgeTag], nullable: true }) colors: BadgeTag[] | null;
  @ApiProperty({ type: [BadgeTag], nullable: true }) designs: BadgeTag[] | null;
  @ApiProperty({ type: [BadgeTag], nullable: true }) metadata: BadgeTag[] | null;
  @ApiProperty({ description: 'Send back as `expectedTagsVersion` to badge.setTags.' }) tagsVersion: string;
  @ApiProperty({ type: BadgeTagVocabulary }) vocabulary: BadgeTagVocabulary;
}

export class TagChoice {
  @ApiPropertyOptional({ maxLength: 64, description: 'An existing tag.' }) id?: string;
  @ApiPropertyOptional({ minLength: 2, maxLength: 40, description: 'A tag by name; created when no tag of that name exists.' })
  name?: string;
}

export class BadgeSetTagsRequestBody {
  @badgeIdProperty() badgeId: string;
  @ApiProperty({ maxLength: 32, description: 'The `tagsVersion` last read; a stale one → 409.' })
  expectedTagsVersion: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: 64 },
    maxItems: 20,
    nullable: true,
    description: 'The complete set of colour tag ids; omit to leave colours as they are.',
  })
  colors?: string[] | null;

  @ApiPropertyOptional({ type: [TagChoice], maxItems: 20, nullable: true, description: 'The complete set of designs; omit to leave them.' })
  @Type(() => TagChoice)
  designs?: TagChoice[] | null;

  @ApiPropertyOptional({
    type: [TagChoice],
    maxItems: 20,
    nullable: true,
    description: 'The complete set of non-visual tags; omit to leave them.',
  })
  @Type(() => TagChoice)
  metadata?: TagChoice[] | null;
}

export class BadgeSetTagsResponseBody {
  @ApiProperty({ type: [BadgeTag], nullable: true }) colors: BadgeTag[] | null;
  @ApiProperty({ type: [BadgeTag], nullable: true }) designs: BadgeTag[] | null;
  @ApiProperty({ type: [BadgeTag], nullable: true }) metadata: BadgeTag[] | null;
  @ApiProperty() tagsVersion: string;
  @ApiProperty({ description: 'Whether this edit closed the badge’s open tag review (see badge.claimTagReviews).' })
  closedReview: boolean;
}
