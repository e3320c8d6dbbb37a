import { STEAM_ID64_BASE, steamId64Of } from '../platform/client/account-ids';

// The platform's 64-bit ids are its client's to define (platform/client/account-ids.ts); named here too for the areas.
export { STEAM_ID64_BASE, steamId64Of };

export const ACCOUNT_PRIVACY = ['private', 'public', 'friends_only'] as const;
export type AccountPrivacy = (typeof ACCOUNT_PRIVACY)[number];

export const LAST_QUEUE_STATUS = ['undefined', 'pending', 'in_progress', 'completed'] as const;
export type LastQueueStatus = (typeof LAST_QUEUE_STATUS)[number];

export const VANITY_TYPES = ['steam', 'internal'] as const;
export type VanityType = (typeof VANITY_TYPES)[number];

export const ROLES = [
  'user',
  'donator',
  'staff',
  'developer',
  'partner',
  'owner',
  'amethyst',
  'amber',
  'emerald',
  'sapphire',
  'ruby',
  'diamond',
  'contributor',
  'early_supporter',
  'beta',
  'translator',
  'top_100',
  'badge_scout',
  'nitro_booster',
  'astral',
  'nebula',
] as const;
export type Role = (typeof ROLES)[number];

/** The 32-bit account id of a 64-bit id, or null when the id is not an individual account's. */
export function accountIdOf(steamId64: string): number | null {
  if (!/^\d{17}$/.test(steamId64)) return null;
  const offset = BigInt(steamId64) - STEAM_ID64_BASE;
  return offset >= 0n && offset <= 0xffffffffn ? Number(offset) : null;
}
