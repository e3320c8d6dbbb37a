import { ApiProperty } from '@nestjs/swagger';

const int32 = (description: string) => ApiProperty({ type: 'integer', format: 'int32', example: 1, description });

/** Platform statistics: all-time totals across tracked accounts (`stats.getStats`, `stats-snapshot`). */
export class V1Stats {
  @int32('Accounts ever added to the service.') accountsAdded: number;
  @int32('Accounts refreshed from the platform at least once.') accountsUpdated: number;
  @int32('Playtime summed over every stored account-app record, in minutes.') appPlaytime: number;
  @int32('Owned apps over all accounts.') apps: number;
  @int32('Awards given.') awardsGiven: number;
  @int32('Awards received.') awardsReceived: number;
  @int32('Badges.') badges: number;
  @int32('Bans.') bans: number;
  @int32('Foil badges.') foilBadges: number;
  @int32('Friends.') friends: number;
  @int32('Game bans.') gameBans: number;
  @int32('Levels summed.') level: number;
  @int32('Normal badges.') normalBadges: number;
  @int32('Playtime of the profiles summed, in minutes.') playtime: number;
  @int32('Points given.') pointsGiven: number;
  @int32('Points received.') pointsReceived: number;
  @int32('The service score summed.') steamSetsScore: number;
  @ApiProperty({ type: 'integer', format: 'int64', example: 1, description: 'Accounts tracked.' }) totalAccounts: number;
  @int32('VAC bans.') vacBans: number;
  @int32('Xp summed.') xp: number;
}
