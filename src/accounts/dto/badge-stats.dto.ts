import { ApiProperty } from '@nestjs/swagger';

export class V1AccountBadgeStatsCount {
  @ApiProperty({ type: 'integer' }) foil: number;
  @ApiProperty({ type: 'integer' }) normal: number;
  @ApiProperty({ type: 'integer' }) special: number;
}

export class V1AccountBadgeStatsXp {
  @ApiProperty({ type: 'integer' }) foil: number;
  @ApiProperty({ type: 'integer' }) normal: number;
}

/** Badge statistics of one account (`account.getBadgeStats`). */
export class V1AccountBadgeStats {
  @ApiProperty({ type: V1AccountBadgeStatsCount }) count: V1AccountBadgeStatsCount;
  @ApiProperty({ type: V1AccountBadgeStatsXp }) xp: V1AccountBadgeStatsXp;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' }, description: 'Badges per level; key: the level.' })
  levels: Record<string, number>;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    description: 'Badges per power-of-ten bucket of platform scarcity; key: the bucket’s lower bound ("1", "10", "100", …).',
  })
  scarcities: Record<string, number>;
  @ApiProperty({ type: 'integer', format: 'int32', example: 123456 }) totalBadges: number;
}
