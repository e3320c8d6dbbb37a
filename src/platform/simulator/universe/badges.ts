import { activityOf, appAt, craftTick, craftsBy, type Activity } from './activity';
import { CATALOGUE_SIZE } from './catalogue';
import { levelInfo } from './level';
import type { AccountProfile } from './profile';
import type { World } from './world';
import { Salt, hash, intIn, logUniformInt } from '../random';
import type { Badge, PlayerBadges } from '../../client/platform.types';

/**
 * Badge rules.
 * - Game badges (badgeid 1, with appid): normal levels 1..5 worth 100 xp per level (level L → xp 100*L), and a
 *   separate foil badge (border_color 1, level 1) worth 100 xp. Normal badges carry border_color 0.
 * - Crafting is a sequence of "units" (one level each) walking the account's app order: app slot s is taken to its
 *   target level (1..5) and then, for ~12% of slots, foil; then the next slot. Units crafted by tick t =
 *   baseUnits + craftsBy(t), so badges only ever gain levels and new badges appear as time moves.
 * - Special badges: badgeid 1..64, no appid. Badge 1 is "years of service" (level = full years since
 *   timecreated, xp 50 per level, so it changes with time); others are fixed, level 1..3, 100 xp per level.
 * - player_xp = sum of xp; level from the platform rule in level.ts.
 */

const GAME_BADGE_ID = 1;
const YEAR_SEC = 31_557_600;
/** Distribution of a slot's target normal level: many stop at 1, many go to 5. */
const TARGET_LEVELS = [1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 4, 5, 5, 5, 5, 5, 5, 5];

interface SlotPlan {
  appIndex: number;
  targetLevel: number;
  foil: boolean;
}

function slotPlan(w: World, a: Activity, accountId: number, slot: number): SlotPlan {
  const appIndex = appAt(a, slot);
  const h = hash(w.seed, Salt.badgeSlot, accountId, appIndex);
  return { appIndex, targetLevel: TARGET_LEVELS[h % TARGET_LEVELS.length], foil: (h >>> 8) % 100 < 12 };
}

/** Number of craft slots (apps) touched by tick t; the owned-games list always covers them. */
export function slotsUsed(w: World, accountId: number, tick: number): number {
  const a = activityOf(w.seed, accountId);
  let remaining = a.baseUnits + craftsBy(a, tick);
  let slot = 0;
  while (remaining > 0 && slot < CATALOGUE_SIZE) {
    const plan = slotPlan(w, a, accountId, slot++);
    remaining -= plan.targetLevel + (plan.foil ? 1 : 0);
  }
  return slot;
}

export function gameBadges(w: World, p: AccountProfile, tick: number): Badge[] {
  const a = activityOf(w.seed, p.accountId);
  const total = a.baseUnits + craftsBy(a, tick);
  // Time of unit u: base units are spread evenly between account creation and the epoch; later ones happen at
  // their craft tick.
  const unitTime = (u: number): number =>
    u < a.baseUnits
      ? Math.floor(p.timeCreated + ((w.time.epochSec - p.timeCreated) * (u + 1)) / (a.baseUnits + 1))
      : w.time.unixAt(craftTick(a, u - a.baseUnits + 1));
  const out: Badge[] = [];
  let used = 0;
  for (let slot = 0; used < total && slot < CATALOGUE_SIZE; slot++) {
    const plan = slotPlan(w, a, p.accountId, slot);
    const app = w.catalogue.apps[plan.appIndex];
    const level = Math.min(plan.targetLevel, total - used);
    out.push(gameBadge(w, p.accountId, app.appId, app.popularity, level, false, unitTime(used + level - 1)));
    used += level;
    if (plan.foil && level === plan.targetLevel && used < total) {
      out.push(gameBadge(w, p.accountId, app.appId, app.popularity, 1, true, unitTime(used)));
      used += 1;
    }
  }
  return out;
}

function gameBadge(w: World, accountId: number, appId: number, popularity: number, level: number, foil: boolean, time: number): Badge {
  const badge: Badge = {
    badgeId: GAME_BADGE_ID,
    level,
    completionTime: time,
    xp: 100 * level,
    // Holders shrink with level; foil is rare.
    scarcity: foil ? Math.floor(popularity * 0.03) + 1 : Math.floor(popularity * 0.45 * 0.62 ** (level - 1)) + 1,
    appId,
    borderColor: foil ? 1 : 0,
  };
  const h = hash(w.seed, Salt.communityItem, accountId, appId, level * 2 + (foil ? 1 : 0));
  if (h % 2 === 0) badge.communityItemId = (20_000_000_000 + (h % 9_000_000_000)).toString();
  return badge;
}

export function specialBadges(w: World, p: AccountProfile, tick: number): Badge[] {
  const out: Badge[] = [];
  const years = Math.floor((w.time.unixAt(tick) - p.timeCreated) / YEAR_SEC);
  if (years >= 1) {
    out.push({ badgeId: 1, level: years, completionTime: p.timeCreated + years * YEAR_SEC, xp: 50 * years, scarcity: 50_000_000 });
  }
  const h = (k: number): number => hash(w.seed, Salt.special, p.accountId, k);
  const count = h(0) % 100 < 40 ? 0 : intIn(h(1), 1, 6);
  const ids = new Set<number>();
  for (let i = 0; i < count; i++) ids.add(intIn(h(2 + i), 2, 64));
  for (const badgeId of [...ids].sort((x, y) => x - y)) {
    const hb = hash(w.seed, Salt.special, p.accountId, 100 + badgeId);
    const level = hb % 10 < 7 ? 1 : intIn(hb >>> 4, 2, 3);
    out.push({
      badgeId,
      level,
      completionTime: intIn(hb >>> 2, p.timeCreated, w.time.epochSec - 1),
      xp: 100 * level,
      scarcity: logUniformInt(hash(w.seed, Salt.special, 0, badgeId), 10_000, 20_000_000),
    });
  }
  return out;
}

/** GetBadges truth: special badges (by badgeid) then game badges in craft order. */
export function playerBadges(w: World, p: AccountProfile, tick: number): PlayerBadges {
  const badges = [...specialBadges(w, p, tick), ...gameBadges(w, p, tick)];
  const xp = badges.reduce((sum, b) => sum + b.xp, 0);
  return { badges, ...levelInfo(xp) };
}
