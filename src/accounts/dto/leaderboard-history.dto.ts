import { ApiProperty } from '@nestjs/swagger';
import { HISTORY_BOARDS } from '../../ranks/account-rank-reader.service';

export class AccountLeaderboardHistory {
  @ApiProperty({ format: 'date-time', description: 'The day of the point (midnight UTC).' }) date: string;
  @ApiProperty({ enum: HISTORY_BOARDS }) leaderboard: string;
  @ApiProperty({ type: 'integer', description: 'Global rank after the account’s last refresh that day.' }) rank: number;
  @ApiProperty({ type: 'integer' }) score: number;
}

export class V1AccountListLeaderboardHistoryResponseBody {
  @ApiProperty({ type: [AccountLeaderboardHistory], nullable: true }) histories: AccountLeaderboardHistory[] | null;
}
