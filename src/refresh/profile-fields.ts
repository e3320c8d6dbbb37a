import { InventoryItem } from '../platform/client/platform.types';
import { ItemKind } from '../items/entities/inventory-item.entity';
import { AccountPrivacy, accountIdOf } from '../account-records/account.enums';
import { AccountEntity } from '../account-records/entities/account.entity';
import { CounterSnapshot } from '../account-records/entities/account-update.entity';
import { regionOfCountry } from '../platform/country-regions';
import { PlatformSnapshot } from './platform-snapshot';

/** Platform visibility 3 is public; everything else reads as private to outsiders. */
function privacyOf(visibilityState: number): AccountPrivacy {
  return visibilityState === 3 ? 'public' : 'private';
}

function vanityOf(profileUrl: string): string | null {
  const match = /\/id\/([^/]+)\/?$/.exec(profileUrl);
  return match ? decodeURIComponent(match[1]).toLowerCase() : null;
}

const DAY_MS = 86_400_000;

/**
 * The account columns a refresh sets, derived from the platform snapshot. Parts the platform hides (private
 * library, friends) keep their last known counters: a private list is recorded as private, not as empty.
 */
export function profileFields(snapshot: PlatformSnapshot, previous: AccountEntity, now: Date): Partial<AccountEntity> {
  const { summary, bans, badges, games, friends, location } = snapshot;
  const gameBadges = badges.badges.filter((badge) => badge.appId !== undefined);
  const foilBadges = gameBadges.filter((badge) => badge.borderColor === 1).length;
  const vacBans = bans?.numberOfVacBans ?? 0;
  const gameBans = bans?.numberOfGameBans ?? 0;
  const communityBan = bans?.communityBanned ?? false;
  const economyBan = bans?.economyBan ?? 'none';
  const banCount = vacBans + gameBans + (communityBan ? 1 : 0) + (economyBan !== 'none' ? 1 : 0);
  const fields: Partial<AccountEntity> = {
    name: summary.personaName,
    avatar: summary.avatarHash,
    privacy: privacyOf(summary.communityVisibilityState),
    appPrivacy: games.visibility === 'private' ? 'private' : 'public',
    friendPrivacy: friends.visibility === 'private' ? 'private' : 'public',
    inventoryPrivacy: snapshot.inventory.visibility === 'private' ? 'private' : 'public',
    platformVanity: vanityOf(summary.profileUrl),
    platformCreatedAt: summary.timeCreated ? new Date(summary.timeCreated * 1000) : previous.platformCreatedAt,
    countryCode: summary.locCountryCode ?? null,
    countryName: location.countryName,
    stateCode: summary.locStateCode ?? null,
    stateName: location.stateName,
    cityId: summary.locCityId ?? null,
    cityName: location.cityName,
    // The platform has no regions: the country's (platform/country-regions.ts).
    region: regionOfCountry(summary.locCountryCode),
    badges: badges.badges.length,
    foilBadges,
    normalBadges: gameBadges.length - foilBadges,
    specialBadges: badges.badges.length - gameBadges.length,
    xp: badges.playerXp,
    level: badges.playerLevel,
    vacBans,
    gameBans,
    communityBan,
    economyBan,
    bans: banCount,
    lastBanDate: banCount > 0 && bans ? new Date(Math.floor(now.getTime() / DAY_MS - bans.daysSinceLastBan) * DAY_MS) : null,
    // The service's own score: xp, with foil badges (a second, pricier set of cards) weighted on top.
    siteScore: badges.playerXp + 100 * foilBadges,
  };
  if (games.visibility === 'public') {
    fields.apps = games.gameCount;
    fields.playtime = games.games.reduce((sum, game) => sum + game.playtimeForever, 0);
  }
  if (friends.visibility === 'public') {
    fields.friends = friends.friends.filter((friend) => accountIdOf(friend.steamId) !== null).length;
  }
  return fields;
}

/** The counters recorded before and after each run, for history, activity and leaderboard changes. */
export const TRACKED_COUNTERS = [
  'level',
  'xp',
  'badges',
  'foilBadges',
  'normalBadges',
  'specialBadges',
  'apps',
  'playtime',
  'friends',
  'bans',
  'vacBans',
  'gameBans',
  'siteScore',
] as const;

export function counterSnapshot(account: Partial<AccountEntity>): CounterSnapshot {
  return Object.fromEntries(TRACKED_COUNTERS.map((name) => [name, (account[name] as number | undefined) ?? 0]));
}

/** What one update adds to the platform totals (`V1Stats` names), from the counters before and after it. */
export function statsDeltas(before: CounterSnapshot, after: CounterSnapshot, firstUpdate: boolean): Record<string, number> {
  const delta = (name: (typeof TRACKED_COUNTERS)[number]) => Number(after[name] ?? 0) - Number(before[name] ?? 0);
  return {
    level: delta('level'),
    xp: delta('xp'),
    badges: delta('badges'),
    foilBadges: delta('foilBadges'),
    normalBadges: delta('normalBadges'),
    apps: delta('apps'),
    playtime: delta('playtime'),
    // The account's playtime is the sum over the app rows the update replaced, so both totals move together.
    appPlaytime: delta('playtime'),
    friends: delta('friends'),
    bans: delta('bans'),
    vacBans: delta('vacBans'),
    gameBans: delta('gameBans'),
    steamSetsScore: delta('siteScore'),
    accountsUpdated: firstUpdate ? 1 : 0,
  };
}

/** Classifies a community item by its tags: trading card (normal or foil), booster pack, or anything else. */
export function itemKindOf(item: InventoryItem): ItemKind {
  const tag = (category: string) => item.tags.find((t) => t.category === category)?.internalName;
  const itemClass = tag('item_class');
  if (itemClass === 'item_class_2') return tag('cardborder') === 'cardborder_1' ? 'foil_card' : 'card';
  if (itemClass === 'item_class_5') return 'booster';
  return 'other';
}
