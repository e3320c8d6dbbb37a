import { ADJECTIVES, NOUNS } from './words';
import { Salt, hash, hex40, pick } from '../random';

/** What a badge's page shows of a badge at one level: its name and the hash its image file is named by. */
export interface BadgeArt {
  name: string;
  iconHash: string;
}

/**
 * The art of a badge at a level, a pure function of (seed, badge, level) like every synthetic fact: a game badge has
 * its own name and image per level (1..5 normal, the foil badge its own), as the platform's do; a special badge
 * (`badgeid` 2..64, or years of service) one per level too. `appId` 0 means a special badge.
 */
export function badgeArt(seed: number, badge: { appId: number; badgeId: number; foil: boolean }, level: number): BadgeArt {
  const variant = badge.appId > 0 ? (badge.foil ? 0 : level) : badge.badgeId * 1_000 + level;
  const [first, second] = [hash(seed, Salt.badgeArt, badge.appId, variant, 1), hash(seed, Salt.badgeArt, badge.appId, variant, 2)];
  // A quarter of the names carry characters a page must escape, as real names do ("Rock & Roll", "Hunter's Mark").
  const joint = first % 4 === 0 ? ' & ' : ' ';
  return { name: `${pick(ADJECTIVES, first)}${joint}${pick(NOUNS, second)}`, iconHash: hex40(seed, Salt.badgeArt, badge.appId, variant) };
}
