import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ACCOUNT_PRIVACY, AccountPrivacy, LAST_QUEUE_STATUS, LastQueueStatus } from '../../account-records/account.enums';
import { RANK_BOARDS } from '../../ranks/account-boards';
import { ACTIVE_IMAGE } from '../../account-records/dto/leaderboard-account.dto';
import { Connection, CountryName, Image, LocationName, RoleRecord } from '../../account-records/dto/profile-records.dto';

const RANKS_CSV = 'CSV global,regional,country,state,city; 0 where the account is unranked there (a zero value, or no such location).';

export class BestLeaderboardRank {
  @ApiProperty({ enum: RANK_BOARDS }) leaderboard: string;
  @ApiProperty({
    example: '1,1,1,1,1',
    description: `${RANKS_CSV} A best rank counts only on a populated board (the service's POPULATED_BOARD_MIN_ACCOUNTS tracked accounts in the scope).`,
  })
  ranks: string;
  @ApiProperty({
    example: '2844566,180244,90233,1200,42',
    description: 'Tracked accounts per scope, same order, when each best rank was reached (0 where none). An extension of this service.',
  })
  totals: string;
}

export class CurrentLeaderboardRank {
  @ApiProperty({ enum: RANK_BOARDS }) leaderboard: string;
  @ApiProperty({ example: '1,1,1,1,1', description: RANKS_CSV }) ranks: string;
  @ApiProperty({ example: '2844566,180244,90233,1200,42', description: 'Tracked accounts per scope (ranked or unranked), same order.' })
  totals: string;
}

const counter = (description?: string) => ApiProperty({ type: 'integer', format: 'int32', minimum: 0, description });
/** Deprecated cost fields: USD cents at the market prices the service keeps; sets not priced yet count 0. */
const cost = (description: string) =>
  ApiProperty({ type: 'integer', format: 'int32', minimum: 0, deprecated: true, description: `${description} USD cents.` });
const dateTime = (nullable: boolean, description?: string) => ApiProperty({ type: 'string', format: 'date-time', nullable, description });

/** The profile of an account (`account.getInfo`). */
export class V1AccountGetInfoResponseBody {
  @counter('The 32-bit account id.') accountId: number;
  @ApiProperty({ example: '76561198842603734', description: 'The 64-bit id as a decimal string.' }) steamId: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Avatar hash.' }) avatar: string;
  @ApiProperty({ description: ACTIVE_IMAGE('animated_avatar') }) animatedAvatar: string;
  @ApiProperty({ description: ACTIVE_IMAGE('avatar_frame') }) avatarFrame: string;
  @ApiProperty({ description: ACTIVE_IMAGE('background') }) background: string;
  @ApiProperty({ description: ACTIVE_IMAGE('mini_background') }) miniBackground: string;
  @ApiProperty() theme: string;
  @ApiProperty({ enum: ACCOUNT_PRIVACY }) privacy: AccountPrivacy;
  @ApiProperty({ enum: ACCOUNT_PRIVACY }) appPrivacy: AccountPrivacy;
  @ApiProperty({ enum: ACCOUNT_PRIVACY }) friendPrivacy: AccountPrivacy;
  @counter() apps: number;
  @counter() badges: number;
  @counter() foilBadges: number;
  @counter() normalBadges: number;
  @counter() friends: number;
  @counter() level: number;
  @counter() xp: number;
  @counter('Minutes.') playtime: number;
  @counter() awardsGiven: number;
  @counter() awardsReceived: number;
  @counter() pointsGiven: number;
  @counter() pointsReceived: number;
  @counter('Total donations.') donated: number;
  @counter() bans: number;
  @counter() gameBans: number;
  @counter() vacBans: number;
  @counter('The service’s own score.') steamSetsScore: number;
  @cost('The app (card) badges together: `normalBadgeCost` + `foilBadgeCost`.') appCost: number;
  @cost('The foil badges at today’s foil set prices.') foilBadgeCost: number;
  @cost('The normal badge levels at today’s set prices (each level consumes one set).') normalBadgeCost: number;
  @ApiProperty() communityBan: boolean;
  @ApiProperty({ example: 'none' }) economyBan: string;
  @dateTime(true, 'Most recent ban.') lastBanDate: string | null;
  @dateTime(true, 'When the account was created on the platform.') createdAt: string | null;
  @dateTime(true, 'Last refresh from the platform.') updatedAt: string | null;
  @dateTime(false, 'Earliest time the account may be refreshed again.') nextAllowedTime: string;
  @ApiProperty({ enum: LAST_QUEUE_STATUS }) lastQueueStatus: LastQueueStatus;
  @ApiProperty({ description: 'The vanity on this service.' }) steamSetsVanity: string;
  @ApiProperty({ description: 'The vanity on the platform.' }) steamVanity: string;
  @ApiProperty({ type: 'string', nullable: true }) shortlinkDomain: string | null;
  @ApiProperty({ type: [Connection], nullable: true }) connections: Connection[] | null;
  @ApiProperty({ type: [Image], nullable: true }) images: Image[] | null;
  @ApiProperty({ type: [RoleRecord], nullable: true }) roles: RoleRecord[] | null;
  @ApiProperty({ type: [CurrentLeaderboardRank], nullable: true }) currentRanks: CurrentLeaderboardRank[] | null;
  @ApiProperty({ type: [BestLeaderboardRank], nullable: true }) currentBestRanks: BestLeaderboardRank[] | null;
  @ApiPropertyOptional({ type: LocationName, nullable: true }) city?: LocationName | null;
  @ApiPropertyOptional({ type: LocationName, nullable: true }) region?: LocationName | null;
  @ApiPropertyOptional({ type: LocationName, nullable: true }) state?: LocationName | null;
  @ApiPropertyOptional({ type: CountryName, nullable: true }) country?: CountryName | null;
}
