import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { AccountPrivacy, LastQueueStatus } from '../account.enums';

/**
 * One tracked platform account: its profile as last read from the platform plus the counters the update
 * worker derives from its badges, apps, friends and bans. The 64-bit platform id is derived from accountId.
 */
@Entity('accounts')
// The best refreshed account at a level and at an app count (ValueLeaders, leaderboard.getBucketLeaders).
@Index('ix_accounts_level_xp', ['level', 'xp', 'accountId'], { where: 'updated_at IS NOT NULL' })
@Index('ix_accounts_apps', ['apps', 'accountId'], { where: 'updated_at IS NOT NULL' })
// Accounts refreshed since a moment: what a rank build places again once it is done (src/ranks).
@Index('ix_accounts_updated_at', ['updatedAt'], { where: 'updated_at IS NOT NULL' })
// The accounts waiting for or in an update: what the worker's UpdateReconciler walks (a few rows, not the population).
@Index('ix_accounts_queued', ['accountId'], { where: "last_queue_status IN ('pending', 'in_progress')" })
// The site vanity is stored lower-case, so its unique index is unique without regard to case.
@Check('ck_accounts_site_vanity_lower', '"site_vanity" = lower("site_vanity")')
export class AccountEntity {
  @PrimaryColumn('integer')
  accountId: number;

  @Column('text', { default: '' })
  name: string;

  @Column('text', { default: '' })
  avatar: string;

  @Column('text', { default: '' })
  animatedAvatar: string;

  @Column('text', { default: '' })
  avatarFrame: string;

  @Column('text', { default: '' })
  background: string;

  @Column('text', { default: '' })
  miniBackground: string;

  @Column('text', { default: '' })
  theme: string;

  @Column('text', { default: 'public' })
  privacy: AccountPrivacy;

  @Column('text', { default: 'public' })
  appPrivacy: AccountPrivacy;

  @Column('text', { default: 'public' })
  friendPrivacy: AccountPrivacy;

  /**
   * The inventory's visibility at the last refresh (the platform answers a private one with 403; its last known items
   * are kept): the crafting planner refuses a private one rather than plan from stale cards.
   */
  @Column('text', { default: 'public' })
  inventoryPrivacy: AccountPrivacy;

  /** Vanity name on the platform (its custom URL), stored lower-case: the platform matches it case-insensitively. */
  @Index('ix_accounts_platform_vanity')
  @Column('text', { nullable: true })
  platformVanity: string | null;

  /**
   * Vanity name on this service (account.updateVanity), stored lower-case (ck_accounts_site_vanity_lower) and unique:
   * two vanities differing only in case are the same one.
   */
  @Index('ux_accounts_site_vanity', { unique: true })
  @Column('text', { nullable: true })
  siteVanity: string | null;

  @Column('integer', { default: 0 }) apps: number;
  @Column('integer', { default: 0 }) badges: number;
  @Column('integer', { default: 0 }) foilBadges: number;
  @Column('integer', { default: 0 }) normalBadges: number;
  @Column('integer', { default: 0 }) specialBadges: number;
  @Column('integer', { default: 0 }) friends: number;
  @Column('integer', { default: 0 }) level: number;
  @Column('integer', { default: 0 }) xp: number;
  /** Total playtime over all owned apps, in minutes. */
  @Column('integer', { default: 0 }) playtime: number;
  @Column('integer', { default: 0 }) awardsGiven: number;
  @Column('integer', { default: 0 }) awardsReceived: number;
  @Column('integer', { default: 0 }) pointsGiven: number;
  @Column('integer', { default: 0 }) pointsReceived: number;
  /** Total donations, in cents. */
  @Column('integer', { default: 0 }) donated: number;
  @Column('integer', { default: 0 }) bans: number;
  @Column('integer', { default: 0 }) gameBans: number;
  @Column('integer', { default: 0 }) vacBans: number;
  /** The service's own score of the account (wire name steamSetsScore). */
  @Column('integer', { default: 0 }) siteScore: number;

  @Column('boolean', { default: false })
  communityBan: boolean;

  @Column('text', { default: 'none' })
  economyBan: string;

  @Column('timestamptz', { nullable: true })
  lastBanDate: Date | null;

  /** When the account was created on the platform. */
  @Column('timestamptz', { nullable: true })
  platformCreatedAt: Date | null;

  @Column('text', { nullable: true }) countryCode: string | null;
  @Column('text', { nullable: true }) countryName: string | null;
  @Column('text', { nullable: true }) stateCode: string | null;
  @Column('text', { nullable: true }) stateName: string | null;
  @Column('integer', { nullable: true }) cityId: number | null;
  @Column('text', { nullable: true }) cityName: string | null;
  /** The region of the country (platform/country-regions.ts), written with it by every writer of a location. */
  @Column('text', { nullable: true }) region: string | null;

  @Column('text', { default: 'undefined' })
  lastQueueStatus: LastQueueStatus;

  /** Last completed refresh from the platform. */
  @Column('timestamptz', { nullable: true })
  updatedAt: Date | null;

  @Column('timestamptz', { default: () => 'now()' })
  nextAllowedTime: Date;

  @Column('integer', { default: 0 })
  updateCount: number;

  @CreateDateColumn({ type: 'timestamptz' })
  addedAt: Date;
}
