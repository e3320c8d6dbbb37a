import { RawJson } from '../../common/wire/raw-json';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TRENDING_WINDOWS } from '../../common/redis/trending-counter';
import { LeaderboardAccount } from '../../account-records/dto/leaderboard-account.dto';

export const VIEW_WINDOWS = TRENDING_WINDOWS;

const count = (description: string) => ApiProperty({ type: 'integer', description });

export class AccountViewStats {
  @count('Profile loads in the last 24 hours.') total24h: number;
  @count('Profile loads in the last 7 days.') total7d: number;
  @count('Profile loads in the last 30 days.') total30d: number;
  @count('Distinct viewers in the last 24 hours.') unique24h: number;
  @count('Distinct viewers in the last 7 days.') unique7d: number;
  @count('Distinct viewers in the last 30 days.') unique30d: number;
}

export class AccountGetTrendingRequestBody {
  @ApiProperty({ enum: VIEW_WINDOWS, example: '7d' }) window: (typeof VIEW_WINDOWS)[number];
  @ApiPropertyOptional({ type: 'integer', format: 'int32', default: 100, minimum: 1, maximum: 1000 })
  limit?: number;
}

export class TrendingAccount {
  @ApiProperty({ type: 'integer' }) accountId: number;
  @ApiProperty({ type: 'integer', description: 'Distinct viewers in the window.' }) uniqueViews: number;
  @ApiProperty({ type: 'integer', description: 'Profile loads in the window.' }) totalViews: number;
  @ApiPropertyOptional({ type: LeaderboardAccount, nullable: true }) account?: LeaderboardAccount | RawJson<LeaderboardAccount> | null;
}

export class AccountGetTrendingResponseBody {
  @ApiProperty({ type: [TrendingAccount], nullable: true, description: 'Most distinct viewers first.' }) accounts: TrendingAccount[] | null;
}
