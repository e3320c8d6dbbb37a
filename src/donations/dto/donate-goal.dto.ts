import { ApiProperty } from '@nestjs/swagger';

export class DonateSupporter {
  @ApiProperty({ type: 'integer', example: 123456 }) accountId: number;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Avatar hash.' }) avatar: string;
  @ApiProperty({ type: 'string', nullable: true }) vanity: string | null;
  @ApiProperty({ type: 'integer', example: 500, description: 'This supporter’s donations this month, in cents.' }) monthCents: number;
}

export class V1DonateGoal {
  @ApiProperty({ example: '2026-08', description: 'The current month, UTC.' }) month: string;
  @ApiProperty({ type: 'integer', example: 50000 }) goalCents: number;
  @ApiProperty({ type: 'integer', example: 34200 }) raisedCents: number;
  @ApiProperty({ type: 'integer', example: 23, description: 'Distinct accounts plus anonymous donations.' }) supporterCount: number;
  @ApiProperty({ type: 'integer', example: 3 }) anonymousCount: number;
  @ApiProperty({ type: [DonateSupporter], nullable: true, description: 'Newest first, at most 48.' }) supporters: DonateSupporter[] | null;
}
