import { chooseLocation, type LocationChoice } from './locations';
import { activityOf } from './activity';
import { PLATFORM_START_SEC } from './time';
import { ADJECTIVES, FIRST_NAMES, HANDLE_PARTS, LAST_NAMES, NOUNS } from './words';
import { GROUP_ID_BASE, steamIdOf, type World } from './world';
import type { VanityCodec } from './vanity';
import { Salt, hash, hex40, intIn, logUniformInt, pick, unit } from '../random';
import type { PlayerBans, PlayerSummary } from '../../client/platform.types';

/** Everything static about an account (the "truth" behind GetPlayerSummaries), plus its privacy. */
export interface AccountProfile {
  accountId: number;
  steamId: string;
  /** ~10% of accounts: communityvisibilitystate 1. */
  isPrivate: boolean;
  personaName: string;
  vanity: string | null;
  profileUrl: string;
  avatarHash: string;
  timeCreated: number;
  realName: string | null;
  location: LocationChoice | null;
  /** Groups in join order: the platform's 32-bit gids as decimal strings (gid64 = GROUP_ID_BASE + gid). */
  groups: string[];
}

export function profileOf(w: World, vanity: VanityCodec, accountId: number): AccountProfile {
  const h = (salt: number, k = 0): number => hash(w.seed, salt, accountId, k);
  const steamId = steamIdOf(accountId);
  const name = vanity.vanityOf(accountId);
  const timeCreated = timeCreatedOf(w, accountId);
  return {
    accountId,
    steamId,
    isPrivate: isPrivateAccount(w, accountId),
    personaName: personaName(w.seed, accountId),
    vanity: name,
    profileUrl: name ? `https://steamcommunity.com/id/${name}/` : `https://steamcommunity.com/profiles/${steamId}/`,
    avatarHash: hex40(w.seed, Salt.avatar, accountId),
    timeCreated,
    realName: h(Salt.realname) % 100 < 30 ? `${pick(FIRST_NAMES, h(Salt.realname, 1))} ${pick(LAST_NAMES, h(Salt.realname, 2))}` : null,
    location:
      h(Salt.location) % 100 < 65 ? chooseLocation(unit(h(Salt.location, 1)), unit(h(Salt.location, 2)), unit(h(Salt.location, 3))) : null,
    groups: groupsOf(w, accountId),
  };
}

/** ~10% of accounts keep their profile private (communityvisibilitystate 1). */
export function isPrivateAccount(w: World, accountId: number): boolean {
  return hash(w.seed, Salt.privacy, accountId) % 100 < 10;
}

/** Older accounts have lower ids, as on the real platform; jitter keeps neighbours from sharing a second. */
export function timeCreatedOf(w: World, accountId: number): number {
  const span = w.time.epochSec - 30 * 86_400 - PLATFORM_START_SEC;
  return Math.floor(PLATFORM_START_SEC + (span * (accountId - 1 + unit(hash(w.seed, Salt.created, accountId)))) / w.size);
}

function personaName(seed: number, accountId: number): string {
  const h = (k: number): number => hash(seed, Salt.persona, accountId, k);
  switch (h(0) % 5) {
    case 0:
      return `${pick(ADJECTIVES, h(1))}${pick(NOUNS, h(2))}`;
    case 1:
      return `${pick(HANDLE_PARTS, h(1))}${h(2) % 100}`;
    case 2:
      return `xX${pick(NOUNS, h(1))}Xx`;
    case 3:
      return pick(FIRST_NAMES, h(1));
    default:
      return `${pick(ADJECTIVES, h(1))} ${pick(NOUNS, h(2))}`;
  }
}

/** How many groups exist: gids 1..groupPool(w). */
export function groupPool(w: World): number {
  return Math.max(100, Math.floor(w.size / 10));
}

/**
 * The gids of an account's groups in join order, written into `out` (room for 40); returns how many. Membership
 * skews towards popular (low) gids: gid = floor(pool * u^3) + 1. Allocation-free, because the group directory
 * (groups.ts) calls it for every account to invert it.
 */
export function writeGroupIds(w: World, accountId: number, out: Int32Array): number {
  if (hash(w.seed, Salt.groups, accountId, 0) % 100 < 30) return 0;
  const pool = groupPool(w);
  const count = logUniformInt(hash(w.seed, Salt.groups, accountId, 1), 1, MAX_GROUPS);
  let n = 0;
  for (let i = 0; i < count; i++) {
    const gid = Math.floor(pool * unit(hash(w.seed, Salt.groups, accountId, 2 + i)) ** 3) + 1;
    let seen = false;
    for (let j = 0; j < n && !seen; j++) seen = out[j] === gid;
    if (!seen) out[n++] = gid;
  }
  return n;
}

export const MAX_GROUPS = 40;

export function groupIdsOf(w: World, accountId: number): number[] {
  const out = new Int32Array(MAX_GROUPS);
  return Array.from(out.subarray(0, writeGroupIds(w, accountId, out)));
}

function groupsOf(w: World, accountId: number): string[] {
  return groupIdsOf(w, accountId).map(String);
}

/** Summary as the platform shows it: private profiles expose only the public subset of fields. */
export function summaryOf(w: World, p: AccountProfile, tick: number): PlayerSummary {
  const avatar = `https://avatars.steamstatic.com/${p.avatarHash}`;
  const act = activityOf(w.seed, p.accountId);
  const h = (k: number): number => hash(w.seed, Salt.persona2, p.accountId, k);
  // Accounts that craft are "online" sometimes; state changes every 30 ticks.
  const online = act.craftPeriod > 0 && hash(w.seed, Salt.persona2, p.accountId, Math.floor(tick / 30)) % 4 === 0;
  const summary: PlayerSummary = {
    steamId: p.steamId,
    communityVisibilityState: p.isPrivate ? 1 : 3,
    profileState: 1,
    personaName: p.personaName,
    profileUrl: p.profileUrl,
    avatar: `${avatar}.jpg`,
    avatarMedium: `${avatar}_medium.jpg`,
    avatarFull: `${avatar}_full.jpg`,
    avatarHash: p.avatarHash,
    personaState: online ? 1 + (h(1) % 6) : 0,
  };
  if (p.isPrivate) return summary;
  // Last log-off: active accounts log off every ~12 hours of ticks, idle ones left before the epoch.
  summary.lastLogoff =
    act.craftPeriod > 0 && tick > 0 ? w.time.unixAt(tick - ((tick + (h(2) % 720)) % 720)) : intIn(h(3), p.timeCreated, w.time.epochSec - 1);
  if (p.realName) summary.realName = p.realName;
  // The primary clan is named by its 64-bit id, unlike GetUserGroupList's gids.
  summary.primaryClanId = (GROUP_ID_BASE + BigInt(p.groups[0] ?? 0)).toString();
  summary.timeCreated = p.timeCreated;
  if (p.location) {
    summary.locCountryCode = p.location.country;
    if (p.location.state) summary.locStateCode = p.location.state;
    if (p.location.city !== undefined) summary.locCityId = p.location.city;
  }
  summary.commentPermission = h(4) % 3 === 0 ? 2 : 1;
  return summary;
}

/** Bans are fixed at generation (all before the epoch); DaysSinceLastBan grows with time. */
export function bansOf(w: World, p: AccountProfile, tick: number): PlayerBans {
  const h = (k: number): number => hash(w.seed, Salt.bans, p.accountId, k);
  const vac = h(1) % 100 < 4 ? intIn(h(2), 1, 3) : 0;
  const game = h(3) % 100 < 3 ? intIn(h(4), 1, 4) : 0;
  const eco = h(5) % 1000;
  const banned = vac + game > 0;
  const banTime = intIn(h(6), p.timeCreated, w.time.epochSec - 1);
  return {
    steamId: p.steamId,
    communityBanned: h(7) % 200 === 0,
    vacBanned: vac > 0,
    numberOfVacBans: vac,
    daysSinceLastBan: banned ? Math.floor((w.time.unixAt(tick) - banTime) / 86_400) : 0,
    numberOfGameBans: game,
    economyBan: eco < 975 ? 'none' : eco < 995 ? 'probation' : 'banned',
  };
}
