import { ApiProperty } from '@nestjs/swagger';
import { LeaderboardAccount } from '../../account-records/dto/leaderboard-account.dto';

/** `account.listFriends`: the account's friends as cards, each with when the friendship began. */
export class V1AccountFriend extends LeaderboardAccount {
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) friendsSince: string | null;
}

export class V1AccountListFriendsResponseBody {
  @ApiProperty({ type: [V1AccountFriend], nullable: true, description: 'The friends this service tracks, most recent friendship first.' })
  friends: (V1AccountFriend | null)[] | null;
}
