import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsOptional, Max, Min } from 'class-validator';
import { LeaderboardAccount } from '../../accounts/dto/leaderboard-account.dto';

export class FindOwnersRequestBody {
  @ApiProperty({ type: [Number], nullable: true, description: 'Item class ids (values may exceed 2^31).' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsInt({ each: true })
  @Min(0, { each: true })
  itemIds: number[] | null;

  @ApiPropertyOptional({
    type: 'integer',
    default: 4,
    minimum: 1,
    maximum: 6,
    description: 'Friend-path depth; ignored for anonymous callers.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(6)
  maxDepth?: number;

  @ApiPropertyOptional({ type: 'integer', default: 0, minimum: 0, description: 'Owners to skip, per item.' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10_000)
  offset?: number;

  @ApiPropertyOptional({ type: 'integer', default: 10, minimum: 1, maximum: 25 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(25)
  ownersPerItem?: number;
}

export class Owner {
  @ApiProperty({ type: LeaderboardAccount, nullable: true }) account: LeaderboardAccount | null;
  @ApiProperty({ type: 'integer', description: 'Copies owned.' }) amount: number;
  @ApiProperty({ type: 'integer', format: 'int64', description: 'One of the owner’s assets, for `#{appId}_{contextId}_{assetId}` links.' })
  assetId: number;
  @ApiProperty({ description: 'A friend path from the caller exists within `maxDepth`.' }) pathFound: boolean;
  @ApiPropertyOptional({ type: 'integer', description: 'Hops from the caller.' }) distance?: number;
  @ApiPropertyOptional({ type: [LeaderboardAccount], nullable: true, description: 'The caller first, the owner last.' })
  path?: (LeaderboardAccount | null)[] | null;
}

export class ItemOwners {
  @ApiProperty({ type: 'integer', format: 'int64' }) classId: number;
  @ApiProperty({ type: 'integer', description: 'Accounts holding at least one copy.' }) totalOwners: number;
  @ApiProperty({ type: [Owner], nullable: true, description: 'Most copies first.' }) owners: Owner[] | null;
}

export class FindOwnersResponseBody {
  @ApiProperty({ type: [ItemOwners], nullable: true }) items: ItemOwners[] | null;
}
