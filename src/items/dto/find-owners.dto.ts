import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { LeaderboardAccount } from '../../account-records/dto/leaderboard-account.dto';
import { INT64_SAFE_MAX } from '../../common/wire/bounds';

export class FindOwnersRequestBody {
  @ApiProperty({
    type: 'array',
    items: { type: 'integer', format: 'int64', minimum: 0, maximum: INT64_SAFE_MAX },
    maxItems: 50,
    nullable: true,
    description: 'Item class ids (values may exceed 2^31). `null` or `[]` finds nothing.',
  })
  // Required but nullable on the wire: `null` is a value, only an absent field is refused.
  itemIds: number[] | null;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    default: 4,
    minimum: 1,
    maximum: 6,
    description: 'Friend-path depth; ignored for anonymous callers.',
  })
  maxDepth?: number;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    default: 0,
    minimum: 0,
    maximum: 10_000,
    description: 'Owners to skip, per item.',
  })
  offset?: number;

  @ApiPropertyOptional({ type: 'integer', format: 'int32', default: 10, minimum: 1, maximum: 25 })
  ownersPerItem?: number;
}

export class Owner {
  @ApiProperty({ type: LeaderboardAccount, nullable: true }) account: LeaderboardAccount | null;
  @ApiProperty({ type: 'integer', description: 'Copies owned.' }) amount: number;
  @ApiProperty({ type: 'integer', format: 'int64', description: 'One of the owner’s assets, for `#{appId}_{contextId}_{assetId}` links.' })
  assetId: number;
  @ApiProperty({ description: 'A friend path from the caller exists within `maxDepth`.' }) pathFound: boolean;
  @ApiPropertyOptional({ type: 'integer', description: 'Hops from the caller.' }) distance?: number;
  @ApiPropertyOptional({
    type: [LeaderboardAccount],
    nullable: true,
    description: 'The caller first, the owner last; an account the service does not track, or one that chose to be hidden, is null.',
  })
  path?: (LeaderboardAccount | null)[] | null;
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', nullable: true },
    example: ['76561197960265729', '76561197960265730', null, '76561197960265731'],
    description:
      'The 64-bit id of every account of `path`, same order: an untracked hop is named here, so distinct paths never look alike; an account that chose to be hidden stays null (an extension of this service).',
  })
  steamIds?: (string | null)[];
}

export class ItemOwners {
  @ApiProperty({ type: 'integer', format: 'int64' }) classId: number;
  @ApiProperty({ type: 'integer', description: 'Accounts holding at least one copy.' }) totalOwners: number;
  @ApiProperty({ type: [Owner], nullable: true, description: 'Most copies first.' }) owners: Owner[] | null;
}

export class FindOwnersResponseBody {
  @ApiProperty({ type: [ItemOwners], nullable: true }) items: ItemOwners[] | null;
}
