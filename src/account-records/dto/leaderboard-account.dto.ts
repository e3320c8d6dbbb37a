import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ACCOUNT_PRIVACY, AccountPrivacy } from '../account.enums';

/** The cosmetic fields: the file name of the account's active uploaded image of a type (account.updateImages). */
export const ACTIVE_IMAGE = (type: string) =>
  `The file name of the account's active \`${type}\` image (served at \`GET /images/<fileName>\`; chosen with \`account.updateImages\`), '' without one.`;
import { CountryName, Image, LocationName, RoleRecord } from './profile-records.dto';

const int = () => ApiProperty({ type: 'integer' });

/** The account row shared by friend lists, owners, leaderboards and feeds (`LeaderboardAccount`). */
export class LeaderboardAccount {
  @ApiProperty({ example: '76561198842603734' }) steamId: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Avatar hash.' }) avatar: string;
  @ApiProperty({ description: ACTIVE_IMAGE('animated_avatar') }) animatedAvatar: string;
  @ApiProperty({ description: ACTIVE_IMAGE('avatar_frame') }) avatarFrame: string;
  @ApiProperty({ description: ACTIVE_IMAGE('background') }) background: string;
  @ApiProperty({ description: ACTIVE_IMAGE('mini_background') }) miniBackground: string;
  @ApiProperty({ enum: ACCOUNT_PRIVACY }) privacy: AccountPrivacy;
  @int() apps: number;
  @int() badges: number;
  @int() foilBadges: number;
  @int() normalBadges: number;
  @int() friends: number;
  @int() level: number;
  @int() xp: number;
  @int() playtime: number;
  @int() awardsGiven: number;
  @int() awardsReceived: number;
  @int() pointsGiven: number;
  @int() pointsReceived: number;
  @int() donated: number;
  @int() bans: number;
  @int() gameBans: number;
  @int() vacBans: number;
  @int() steamSetsScore: number;
  @ApiProperty({ type: 'integer', deprecated: true }) appCost: number;
  @ApiProperty({ type: 'integer', deprecated: true }) foilBadgeCost: number;
  @ApiProperty({ type: 'integer', deprecated: true }) normalBadgeCost: number;
  @ApiProperty() economyBan: string;
  @ApiProperty({
    format: 'date-time',
    description:
      'When the account was created on the platform; `1970-01-01T00:00:00.000Z` (the epoch: unknown) where the platform does not tell (a private profile), where the profile says null: this field is not nullable.',
  })
  createdAt: string;
  @ApiProperty() steamSetsVanity: string;
  @ApiProperty() steamVanity: string;
  @ApiProperty({ type: [Image], nullable: true }) images: Image[] | null;
  @ApiProperty({ type: [RoleRecord], nullable: true }) roles: RoleRecord[] | null;
  @ApiPropertyOptional({ type: LocationName, nullable: true }) city?: LocationName | null;
  @ApiPropertyOptional({ type: LocationName, nullable: true }) region?: LocationName | null;
  @ApiPropertyOptional({ type: LocationName, nullable: true }) state?: LocationName | null;
  @ApiPropertyOptional({ type: CountryName, nullable: true }) country?: CountryName | null;
}
