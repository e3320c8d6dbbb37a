import { sqlJsonIsoTime, sqlJsonString } from '../../common/wire/sql-json-text';
import { AccountPrivacy } from '../account.enums';
import { RoleRecord } from '../dto/profile-records.dto';
import { LeaderboardAccount } from '../dto/leaderboard-account.dto';
import { CardAccount, toLeaderboardAccount } from './account-record.mapper';

/**
 * An account card as PostgreSQL sends it to a listing: one JSON array of its values, in the order of CARD_VALUES,
 * instead of some thirty columns. The driver turns every column of every row into a string of its own and parses it
 * in JavaScript (a 100-row listing spent more Node time there than on anything else); `JSON.parse` of one text does
 * the same natively. The values are plain: text, integers, the creation date as epoch milliseconds (floored, as the
 * driver's own timestamp parsing truncates microseconds), and the roles as `toRoles` shapes them (or null).
 */
export type CardValues = [
  accountId: number,
  name: string,
  avatar: string,
  animatedAvatar: string,
  avatarFrame: string,
  background: string,
  miniBackground: string,
  privacy: AccountPrivacy,
  apps: number,
  badges: number,
  foilBadges: number,
  normalBadges: number,
  friends: number,
  level: number,
  xp: number,
  playtime: number,
  awardsGiven: number,
  awardsReceived: number,
  pointsGiven: number,
  pointsReceived: number,
  donated: number,
  bans: number,
  gameBans: number,
  vacBans: number,
  siteScore: number,
  economyBan: string,
  siteVanity: string | null,
  platformVanity: string | null,
  countryName: string | null,
  countryCode: string | null,
  stateName: string | null,
  cityName: string | null,
  createdAtMs: number,
  roles: RoleRecord[] | null,
  region: string | null,
];

/**
 * A card's `createdAt` where the platform does not tell (a private profile): the Unix epoch. The wire's
 * `LeaderboardAccount.createdAt` is not nullable (a generated client rejects null), and the date the service first
 * saw the account would look like a creation date; the epoch says "unknown" to any reader, as the profile's null does.
 */
export const UNKNOWN_CREATED_AT = '1970-01-01T00:00:00.000Z';
const CARD_CREATED_AT = `COALESCE(a.platform_created_at, '${UNKNOWN_CREATED_AT}'::timestamptz)`;

/**
 * The SQL of CardValues for the account aliased `a`: the platform's creation date (UNKNOWN_CREATED_AT where the
 * platform does not tell: a private profile; never the date the service first saw it), and its roles from
 * `cardRoles`, which the statement joins.
 */
export const CARD_VALUES = `json_build_array(
  a.account_id, a.name, a.avatar, a.animated_avatar, a.avatar_frame, a.background, a.mini_background, a.privacy,
  a.apps, a.badges, a.foil_badges, a.normal_badges, a.friends, a.level, a.xp, a.playtime, a.awards_given,
  a.awards_received, a.points_given, a.points_received, a.donated, a.bans, a.game_bans, a.vac_bans, a.site_score,
  a.economy_ban, a.site_vanity, a.platform_vanity, a.country_name, a.country_code, a.state_name, a.city_name,
  floor(extract(epoch FROM ${CARD_CREATED_AT}) * 1000),
  cr.roles, a.region)`;

/**
 * The roles of the cards' accounts, as CARD_VALUES and CARD_TEXT read them (`cr.roles`): every statement that selects
 * a card from `accounts a` joins this, with `accounts` the condition on `r.account_id` that names the same accounts
 * (`r.account_id = ANY($1)`). The roles are aggregated in one scan for all of them, ordered as the profile lists them
 * (rating, then name). A subquery per card ran a scan per card, though most accounts have no roles: joined, a listing of
 * 30 cards costs PostgreSQL ~7 % less CPU (docs/performance-history.md, "The cards' roles joined").
 */
export function cardRoles(accounts: string): string {
  return `LEFT JOIN (SELECT r.account_id,
       json_agg(json_build_object('role', r.role, 'rating', r.rating, 'extras', r.extras) ORDER BY r.rating DESC, r.role) AS roles
     FROM account_roles r WHERE ${accounts} GROUP BY r.account_id) cr ON cr.account_id = a.account_id`;
}

/** The account a card is built from, with its creation date and roles. */
export function cardAccountOf(v: CardValues): CardAccount & { createdAt: Date; roles: RoleRecord[] | null } {
  return {
    accountId: v[0],
    name: v[1],
    avatar: v[2],
    animatedAvatar: v[3],
    avatarFrame: v[4],
    background: v[5],
    miniBackground: v[6],
    privacy: v[7],
    apps: v[8],
    badges: v[9],
    foilBadges: v[10],
    normalBadges: v[11],
    friends: v[12],
    level: v[13],
    xp: v[14],
    playtime: v[15],
    awardsGiven: v[16],
    awardsReceived: v[17],
    pointsGiven: v[18],
    pointsReceived: v[19],
    donated: v[20],
    bans: v[21],
    gameBans: v[22],
    vacBans: v[23],
    siteScore: v[24],
    economyBan: v[25],
    siteVanity: v[26],
    platformVanity: v[27],
    countryName: v[28],
    countryCode: v[29],
    stateName: v[30],
    cityName: v[31],
    createdAt: new Date(v[32]),
    roles: v[33],
    region: v[34],
  };
}

/** The `LeaderboardAccount` of a card's values. */
export function cardOf(values: CardValues): LeaderboardAccount {
  return toLeaderboardAccount(cardAccountOf(values));
}

const str = sqlJsonString;

/**
 * accountRecord's (profile.mapper.ts) fields from `steamId` to `steamVanity`, in its order, as `[key, SQL of the
 * value's JSON text]` over the account aliased `a`: shared by the card text and the profile text (profile-text.ts).
 */
export function recordTextFields(): [string, string][] {
  return [
    ['steamId', str('(76561197960265728 + a.account_id)::text')],
    ['name', str('a.name')],
    ['avatar', str('a.avatar')],
    ['animatedAvatar', str('a.animated_avatar')],
    ['avatarFrame', str('a.avatar_frame')],
    ['background', str('a.background')],
    ['miniBackground', str('a.mini_background')],
    ['privacy', str('a.privacy')],
    ...(
      [
        ['apps', 'apps'],
        ['badges', 'badges'],
        ['foilBadges', 'foil_badges'],
        ['normalBadges', 'normal_badges'],
        ['friends', 'friends'],
        ['level', 'level'],
        ['xp', 'xp'],
        ['playtime', 'playtime'],
        ['awardsGiven', 'awards_given'],
        ['awardsReceived', 'awards_received'],
        ['pointsGiven', 'points_given'],
        ['pointsReceived', 'points_received'],
        ['donated', 'donated'],
        ['bans', 'bans'],
        ['gameBans', 'game_bans'],
        ['vacBans', 'vac_bans'],
        ['steamSetsScore', 'site_score'],
      ] as const
    ).map(([field, column]): [string, string] => [field, `a.${column}::text`]),
    // Cards leave the cost fields 0; the profile writes its own in their place (profile-text.ts).
    ['appCost', `'0'`],
    ['foilBadgeCost', `'0'`],
    ['normalBadgeCost', `'0'`],
    ['economyBan', str('a.economy_ban')],
    ['steamSetsVanity', str(`COALESCE(a.site_vanity, '')`)],
    ['steamVanity', str(`COALESCE(a.platform_vanity, '')`)],
  ];
}
const present = (column: string) => `COALESCE(a.${column}, '') <> ''`;

/** accountRecord's location objects as JSON text, each with its leading comma, each only when known (else ''). */
export const LOCATION_TEXT = `CASE WHEN ${present('country_name')}
       THEN ',"country":{"name":' || ${str('a.country_name')}
            || CASE WHEN ${present('country_code')} THEN ',"code":' || ${str('a.country_code')} ELSE '' END || '}'
       ELSE '' END
  || CASE WHEN ${present('state_name')} THEN ',"state":{"name":' || ${str('a.state_name')} || '}' ELSE '' END
  || CASE WHEN ${present('city_name')} THEN ',"city":{"name":' || ${str('a.city_name')} || '}' ELSE '' END
  || CASE WHEN ${present('region')} THEN ',"region":{"name":' || ${str('a.region')} || '}' ELSE '' END`;

/**
 * The card of the account aliased `a` as JSON text, exactly as JSON.stringify writes `cardOf` (same keys in the same
 * order, same values: accountRecord's rules, the creation date as toISOString writes it), in two parts around its
 * roles (as in CARD_VALUES, written by `cardTextOf`): the text up to `"roles":`, and the rest (CARD_TAIL_TEXT).
 * Sent by the statements of CardTextCache.
 */
export const CARD_HEAD_TEXT = `'{' || ${recordTextFields()
  .map(([field, sql]) => `'"${field}":' || ${sql}`)
  .join(" || ',' || ")} || ',"images":[],"roles":'`;

/** What follows the location objects in a card's tail (a JSON string escapes its quotes, so it is never inside one). */
export const CARD_CREATED_AT_MEMBER = ',"createdAt":';

/** A card's JSON text after its roles: its location objects, its creation date, the closing brace. */
export const CARD_TAIL_TEXT = `${LOCATION_TEXT}
  || '${CARD_CREATED_AT_MEMBER}' || ${sqlJsonIsoTime(CARD_CREATED_AT)} || '}'`;

/** A card's text from its parts, to be put into a response as it is (a RawJson, common/wire/raw-json.ts). */
export function cardTextOf(head: string, roles: RoleRecord[] | null, tail: string): string {
  return `${head}${JSON.stringify(roles ?? [])}${tail}`;
}
