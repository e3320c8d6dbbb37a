import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';

const BADGE_ID = /^bdg_\d{1,10}$/;
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
  @badgeIdProperty() @IsString() @MaxLength(14) @Matches(BADGE_ID, { message: 'badgeId must look like bdg_123' }) badgeId: string;
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
  @ApiPropertyOptional({ maxLength: 64, description: 'An existing tag.' }) @IsOptional() @IsString() @MaxLength(64) id?: string;
  @ApiPropertyOptional({ minLength: 2, maxLength: 40, description: 'A tag by name; created when no tag of that name exists.' })
  @IsOptional()
  @IsString()
  @MinLength(2)
  @MaxLength(40)
  name?: string;
}

export class BadgeSetTagsRequestBody {
  @badgeIdProperty() @IsString() @MaxLength(14) @Matches(BADGE_ID, { message: 'badgeId must look like bdg_123' }) badgeId: string;
  @ApiProperty({ maxLength: 32, description: 'The `tagsVersion` last read; a stale one → 409.' })
  @IsString()
  @MaxLength(32)
  expectedTagsVersion: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: 64 },
    maxItems: 20,
    nullable: true,
    description: 'The complete set of colour tag ids; omit to leave colours as they are.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  colors?: string[] | null;

  @ApiPropertyOptional({ type: [TagChoice], maxItems: 20, nullable: true, description: 'The complete set of designs; omit to leave them.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => TagChoice)
  designs?: TagChoice[] | null;

  @ApiPropertyOptional({
    type: [TagChoice],
    maxItems: 20,
    nullable: true,
    description: 'The complete set of non-visual tags; omit to leave them.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => TagChoice)
  metadata?: TagChoice[] | null;
}

export class BadgeSetTagsResponseBody {
  @ApiProperty({ type: [BadgeTag], nullable: true }) colors: BadgeTag[] | null;
  @ApiProperty({ type: [BadgeTag], nullable: true }) designs: BadgeTag[] | null;
  @ApiProperty({ type: [BadgeTag], nullable: true }) metadata: BadgeTag[] | null;
  @ApiProperty() tagsVersion: string;
  @ApiProperty({ description: 'Whether this edit closed a pending tag review (the service keeps no review queue: false).' })
  closedReview: boolean;
}
