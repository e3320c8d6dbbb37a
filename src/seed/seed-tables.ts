import { AccountEntity } from '../account-records/entities/account.entity';
import { SnakeNamingStrategy } from '../database/snake-naming.strategy';

/**
 * The account columns a refresh writes (profileFields plus the run bookkeeping), in COPY order. Every other
 * column keeps its default, as it does when the worker updates an account. The generator checks that
 * profileFields sets nothing outside this list, so a new profile field cannot be silently left out of a seed.
 */
export const ACCOUNT_FIELDS = [
  'accountId',
  'name',
  'avatar',
  'privacy',
  'appPrivacy',
  'friendPrivacy',
  'inventoryPrivacy',
  'platformVanity',
  'platformCreatedAt',
  'countryCode',
  'countryName',
  'stateCode',
  'stateName',
  'cityId',
  'cityName',
  'region',
  'apps',
  'playtime',
  'friends',
  'badges',
  'foilBadges',
  'normalBadges',
  'specialBadges',
  'xp',
  'level',
  'vacBans',
  'gameBans',
  'communityBan',
  'economyBan',
  'bans',
  'lastBanDate',
  'siteScore',
  'lastQueueStatus',
  'updatedAt',
  'nextAllowedTime',
  'updateCount',
  'addedAt',
] as const satisfies readonly (keyof AccountEntity)[];

const naming = new SnakeNamingStrategy();

/** Tables the seed fills with COPY, and their columns in the order the generator renders them. */
export const SEED_TABLES = {
  accounts: ACCOUNT_FIELDS.map((field) => naming.columnName(field, undefined, [])),
  account_badges: ['account_id', 'badge_id', 'level', 'xp', 'completion_time'],
  account_apps: ['account_id', 'app_id', 'playtime', 'playtime2_weeks', 'last_played'],
  account_friends: ['account_id', 'friend_account_id', 'friend_since'],
  account_groups: ['account_id', 'group_id'],
  inventory_items: ['account_id', 'class_id', 'app_id', 'kind', 'name', 'market_hash_name', 'amount', 'asset_id'],
  account_updates: [
    'run_id',
    'account_id',
    'status',
    'queued_at',
    'started_at',
    'finished_at',
    'attempts',
    'steps',
    'error',
    'before',
    'after',
  ],
  activity_events: ['account_id', 'event_type', 'occurred_at', 'data'],
} as const;

export type SeedTable = keyof typeof SEED_TABLES;
export const SEED_TABLE_NAMES = Object.keys(SEED_TABLES) as SeedTable[];
