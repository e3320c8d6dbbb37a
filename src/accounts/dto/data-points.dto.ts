import { ApiProperty } from '@nestjs/swagger';
import { V1AppBadge } from '../../apps/dto/app-badges.dto';

export class V1AccountPlaytimeDataPoint {
  @ApiProperty({ type: 'integer', example: 730 }) appId: number;
  @ApiProperty({ example: 'CS2' }) name: string;
  @ApiProperty({ description: 'Icon hash.' }) image: string;
  @ApiProperty({ type: 'integer', description: 'Minutes.' }) playtime: number;
}

export class V1AccountGetDataPointsResponseBody {
  @ApiProperty({ type: [V1AppBadge], nullable: true, description: 'The 10 badges that gave the most xp.' }) mostXp: V1AppBadge[] | null;
  @ApiProperty({ type: [V1AppBadge], nullable: true, description: 'The 10 rarest badges (lowest platform scarcity).' }) scarcity:
    V1AppBadge[] | null;
  @ApiProperty({ type: [V1AccountPlaytimeDataPoint], nullable: true, description: 'The 20 most played apps.' }) playtime:
    V1AccountPlaytimeDataPoint[] | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } },
    description: 'Badge xp gained per year and month (UTC): `{"2024": {"01": 300}}`.',
  })
  xp: Record<string, Record<string, number>>;
}
