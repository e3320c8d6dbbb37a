import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { RawJson } from '../../common/wire/raw-json';
import { AccountSearch } from '../../account-records/dto/account-search.dto';
import { LeaderboardAccount } from '../../account-records/dto/leaderboard-account.dto';

export class V1AccountFindFriendPathRequestBody {
  @ApiProperty({ type: AccountSearch }) @Type(() => AccountSearch) from: AccountSearch;
  @ApiProperty({ type: AccountSearch }) @Type(() => AccountSearch) to: AccountSearch;

  @ApiPropertyOptional({ type: [AccountSearch], maxItems: 50, nullable: true, description: 'Accounts no path may pass through.' })
  @Type(() => AccountSearch)
  exclude?: AccountSearch[] | null;

  @ApiPropertyOptional({ type: 'integer', format: 'int32', default: 10, minimum: 1, maximum: 50 })
  maxPaths?: number;
}

export class FriendPath {
  @ApiProperty({ type: 'integer', description: 'Hops.' }) distance: number;
  @ApiProperty({
    type: [LeaderboardAccount],
    nullable: true,
    description:
      'From `from` to `to`; an account the service does not track is null (its id is in `steamIds`), and so is a hop between the ends that chose to be hidden.',
  })
  path: (LeaderboardAccount | RawJson<LeaderboardAccount> | null)[] | null;
  @ApiProperty({
    type: 'array',
    items: { type: 'string', nullable: true },
    example: ['76561197960265729', '76561197960265730'],
    description:
      'The 64-bit id of every account of `path`, same order, tracked or not (an extension of this service: `path` has no card for an untracked hop); null for a hop between the ends that chose to be hidden.',
  })
  steamIds: (string | null)[];
}

export class V1AccountFindFriendPathResponseBody {
  @ApiProperty() found: boolean;
  @ApiProperty({ type: [FriendPath], nullable: true, description: 'Shortest first.' }) paths: FriendPath[] | null;
}
