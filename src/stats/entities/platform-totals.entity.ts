import { Column, Entity, PrimaryColumn } from 'typeorm';

const total = () => Column('bigint', { default: 0 });

/**
 * The platform totals of `stats.getStats`, kept in step with every change to the accounts (see PlatformTotals).
 * The totals are spread over a few stripes (rows) so concurrent writers do not queue on one row; a read sums
 * them. Property names are the `V1Stats` field names.
 */
@Entity('platform_totals')
export class PlatformTotalsEntity {
  @PrimaryColumn('smallint')
  stripe: number;

  @total() accountsAdded: string;
  @total() accountsUpdated: string;
  @total() appPlaytime: string;
  @total() apps: string;
  @total() awardsGiven: string;
  @total() awardsReceived: string;
  @total() badges: string;
  @total() bans: string;
  @total() foilBadges: string;
  @total() friends: string;
  @total() gameBans: string;
  @total() level: string;
  @total() normalBadges: string;
  @total() playtime: string;
  @total() pointsGiven: string;
  @total() pointsReceived: string;
  @total() steamSetsScore: string;
  @total() totalAccounts: string;
  @total() vacBans: string;
  @total() xp: string;
}
