import { ApiProperty } from '@nestjs/swagger';

export class V1AccountBadgeOwnedBadge {
  @ApiProperty({ type: 'integer', example: 730, description: '0 for a special badge, which belongs to no app.' }) appId: number;
  @ApiProperty({ example: 'bdg_123' }) badgeId: string;
  @ApiProperty() isFoil: boolean;
  @ApiProperty({ type: 'integer' }) level: number;
  @ApiProperty({ type: 'integer', example: 13, description: 'The platform’s badge id.' }) steamId: number;
}

export class V1AccountBadgeOwnedBadgesResponseBody {
  @ApiProperty({ type: [V1AccountBadgeOwnedBadge], nullable: true }) ownedBadges: V1AccountBadgeOwnedBadge[] | null;
}

export class V1AccountCraftedLevelsNormal {
  @ApiProperty({ type: 'integer' }) appId: number;
  @ApiProperty({ type: 'integer', description: 'The highest normal level crafted.' }) level: number;
}

export class V1AccountListCraftedLevelsResponseBody {
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'When the badges were last refreshed.' })
  badgesUpdatedAt: string | null;
  @ApiProperty({ type: [Number], nullable: true, description: 'Apps with a crafted foil badge.' }) foil: number[] | null;
  @ApiProperty({ type: [V1AccountCraftedLevelsNormal], nullable: true }) normal: V1AccountCraftedLevelsNormal[] | null;
}
