import { ApiProperty } from '@nestjs/swagger';

/** A badge that has a badge leaderboard, with completion statistics and rarity. */
export class V1LeaderboardBadge {
  @ApiProperty({ example: 'bdg_123' }) badgeId: string;
  @ApiProperty({ type: 'integer', description: 'The platform’s badge id.' }) steamId: number;
  @ApiProperty({
    description:
      'The platform’s name of the badge (its badge page’s, at the lowest level a tracked account holds); until read, the app’s name and “Badge”.',
  })
  name: string;
  @ApiProperty({ description: 'The platform’s image file of the badge (`<hash>.png`, from the same page); empty until read.' })
  image: string;
  @ApiProperty({ type: 'integer', example: 730 }) appId: number;
  @ApiProperty() appName: string;
  @ApiProperty() appImage: string;
  @ApiProperty({ type: 'integer' }) level: number;
  @ApiProperty({ type: 'integer' }) xp: number;
  @ApiProperty({ type: 'integer', nullable: true }) highestLevel: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) scarcity: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) trackedHolders: number | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) firstCompletion: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) lastCompletion: string | null;
  @ApiProperty() isEvent: boolean;
  @ApiProperty() isFoil: boolean;
  @ApiProperty() isSale: boolean;
  @ApiProperty({ type: 'integer', deprecated: true, description: 'The card set’s market price, USD cents; 0 until priced.' })
  price: number;
}

export class V1LeaderboardListBadgesResponseBody {
  @ApiProperty({ type: [V1LeaderboardBadge], nullable: true }) badges: V1LeaderboardBadge[] | null;
}
