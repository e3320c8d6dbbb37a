import { ApiProperty } from '@nestjs/swagger';
import { LeaderboardAccount } from '../../account-records/dto/leaderboard-account.dto';
import { RankWindowRequest } from '../../leaderboards/dto/rank-window.dto';
import { GROUP_BOARDS, GROUP_PRIVACY, GroupBoard, GroupPrivacy } from '../group.enums';

const gid = () =>
  ApiProperty({ type: 'integer', format: 'int64', minimum: 1, example: 730, description: 'The platform’s 32-bit group id (gid).' });
const foundedAt = () =>
  ApiProperty({ format: 'date-time', description: 'When this service first saw the group (the platform’s founding date is not read).' });
const tag = () => ApiProperty({ example: '', description: 'The group’s abbreviation; not read from the platform yet, so empty.' });
const avatar = () => ApiProperty({ example: 'f1a1d2c3d0c9de1f2f3f4f5f6f7f8f9.jpg', description: 'Avatar file name (hash).' });

/** A group an account owns (`account.listOwnedGroups`). */
export class V1OwnedGroup {
  @gid() id: number;
  @ApiProperty({ type: 'integer', example: 100, description: 'Members on the platform.' }) members: number;
  @ApiProperty() name: string;
  @tag() tag: string;
  @ApiProperty({ description: 'The group’s custom URL name on the platform.' }) vanity: string;
  @avatar() avatar: string;
  @ApiProperty({ example: 'public', description: 'A free string here; the values of GroupPrivacy.' }) privacy: string;
  @foundedAt() foundedAt: string;
}

export class V1AccountListOwnedGroupsResponseBody {
  @ApiProperty({ type: [V1OwnedGroup], nullable: true, description: 'Largest first.' }) groups: V1OwnedGroup[] | null;
}

export class V1LeaderboardGetGroupLeaderboardRequestBody extends RankWindowRequest {
  @ApiProperty({ enum: GROUP_BOARDS, example: 'most_members' }) leaderboard: GroupBoard;
}

/** A group on the board (`V1GroupLeaderboardGroup`). */
export class V1GroupLeaderboardGroup {
  @gid() id: number;
  @ApiProperty({ example: 'Group Name' }) name: string;
  @tag() tag: string;
  @ApiProperty({ example: 'Group Vanity', description: 'The group’s custom URL name on the platform.' }) vanity: string;
  @avatar() avatar: string;
  @foundedAt() foundedAt: string;
  @ApiProperty({ type: 'integer', example: 100, description: 'Members on the platform.' }) members: number;
  @ApiProperty({
    type: 'integer',
    example: 1,
    description: 'Rank on the board; 0 for a group that is not on it (hidden, or not read yet).',
  })
  rank: number;
  @ApiProperty({ enum: GROUP_PRIVACY, example: 'public' }) privacy: GroupPrivacy;
  @ApiProperty({
    type: LeaderboardAccount,
    nullable: true,
    description: 'The first member of the group’s list, when this service tracks that account and it is not hidden.',
  })
  owner: LeaderboardAccount | null;
}

export class V1LeaderboardGetGroupLeaderboardResponseBody {
  @ApiProperty({ type: [V1GroupLeaderboardGroup], nullable: true, description: 'The window, best first.' })
  groups: V1GroupLeaderboardGroup[] | null;
  @ApiProperty({ type: V1GroupLeaderboardGroup, description: 'The service’s own group, always included (wire name kept as written).' })
  steamSetsGroup: V1GroupLeaderboardGroup;
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, default: 0, description: 'Groups on the board.' })
  rankedOutOf: number;
}
