import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { INT32_MAX } from '../../common/wire/bounds';

export class AccountBadgeInfo {
  @ApiProperty({ format: 'date-time' }) completionTime: string;
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0 }) level: number;
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0 }) xp: number;
}

const int32 = (description?: string) => ApiProperty({ type: 'integer', format: 'int32', minimum: 0, description });
const int64 = (description?: string) => ApiProperty({ type: 'integer', format: 'int64', minimum: 0, description });

/** A badge of an app with holder statistics (`app.listBadges`, `account.listBadges`, …). */
export class V1AppBadge {
  @ApiProperty({ example: 'bdg_123', description: 'The service’s public badge id.' }) badgeId: string;
  @int32('The platform’s badge id.') steamId: number;
  @ApiProperty({
    description:
      'The platform’s name of the badge (its badge page’s, at the lowest level a tracked account holds); until read, the app’s name and “Badge”.',
  })
  name: string;
  @ApiProperty({ description: 'The platform’s image file of the badge (`<hash>.png`, from the same page); empty until read.' })
  badgeImage: string;
  @int32() appId: number;
  @ApiProperty() appName: string;
  @ApiProperty() appImage: string;
  @int32('The level the badge starts at.') baseLevel: number;
  @int32('Xp per level.') baseXp: number;
  @int32(
    'Trading cards per side in the app’s set, as the platform’s market lists them (the distinct cards seen in tracked inventories until the service has read the set).',
  )
  cardCount: number;
  @ApiProperty({ type: 'integer', format: 'int64', description: 'Highest level held by a tracked account.' }) highestLevel: number;
  @int64('Holders on the platform, as the platform reports it.') scarcity: number;
  @int64('Holders among tracked accounts.') trackedHolders: number;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) firstCompletion: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) lastCompletion: string | null;
  @ApiProperty() isEvent: boolean;
  @ApiProperty() isFoil: boolean;
  @ApiProperty() isSale: boolean;
  @ApiProperty({ description: 'The needed cards cannot be traded on the market.' }) isNmc: boolean;
  @ApiProperty({ description: 'At least one needed card has no market listing now.' }) noListing: boolean;
  @ApiProperty({
    type: 'integer',
    format: 'int32',
    deprecated: true,
    description: 'What the badge’s card set (normal or foil) costs on the market now, USD cents; 0 until priced.',
  })
  price: number;
  @ApiPropertyOptional({ type: AccountBadgeInfo, nullable: true, description: 'The caller’s own progress on this badge.' })
  accountInfo?: AccountBadgeInfo | null;
}

export class V1AppListBadgesRequest {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, maximum: INT32_MAX, example: 1 })
  appId: number;
}

export class V1AppListBadgesResponseBody {
  @ApiProperty({ type: [V1AppBadge], nullable: true }) badges: V1AppBadge[] | null;
}
