import { CATALOGUE_SIZE } from './catalogue';
import { Salt, hash, intIn, logUniformInt, skewedInt, unit } from '../random';

/**
 * Per-account behaviour parameters. Time-dependent facts are closed-form in the tick, so computing an account at
 * any tick costs O(size of the answer), never O(ticks elapsed):
 * - crafting: the k-th craft after the epoch happens at tick k*craftPeriod - craftOffset (0 < offset <= period),
 *   i.e. crafts(t) = floor((t + offset) / period) for t >= 0 — a steady heavy-tailed rate per account;
 * - playing: favourite games gain floor(t * playRatePerMille / 1000) minutes by tick t.
 */
export interface Activity {
  /** 0 = never crafts after the epoch. */
  craftPeriod: number;
  craftOffset: number;
  /** Badge levels (units) already crafted at tick 0. */
  baseUnits: number;
  /** The account's personal order of catalogue apps: index(i) = (permStart + i * permStep) mod CATALOGUE_SIZE. */
  permStart: number;
  permStep: number;
  /** Games owned at tick 0 (the first baseGames of the permutation); crafting later may extend ownership. */
  baseGames: number;
  /** How many of the first owned games are played after the epoch (0..3). */
  favourites: number;
  playRatePerMille: number;
}

/** Tail shapes (see skewedInt): owned games median 2, mean ~26; crafted levels median 5, mean ~73 (of crafters). */
const LIBRARY_SHAPE = 3;
const CRAFTED_SHAPE = 2;

/** The last answer: inventories ask for the same account's activity once per asset, hundreds of times in a row. */
let last: { seed: number; accountId: number; activity: Activity } | null = null;

/** An account's activity profile: a pure function of (seed, account). */
export function activityOf(seed: number, accountId: number): Activity {
  if (last?.seed === seed && last.accountId === accountId) return last.activity;
  const activity = computeActivity(seed, accountId);
  last = { seed, accountId, activity };
  return activity;
}

function computeActivity(seed: number, accountId: number): Activity {
  const h = (k: number): number => hash(seed, Salt.activity, accountId, k);
  const crafter = h(1) % 100 < 45;
  // A level every 1 week to 9 months (at the default 1-minute tick): a library keeps growing, slowly.
  const craftPeriod = crafter ? logUniformInt(h(2), 10_000, 400_000) : 0;
  // Libraries and crafted levels as a platform's: most accounts own and craft a little, a few own the catalogue.
  const baseGames = h(5) % 100 < 5 ? 0 : skewedInt(h(6), CATALOGUE_SIZE, LIBRARY_SHAPE);
  const player = baseGames > 0 && h(7) % 100 < 50;
  return {
    craftPeriod,
    craftOffset: crafter ? 1 + (h(3) % craftPeriod) : 0,
    baseUnits: h(4) % 100 < 35 ? 0 : skewedInt(h(8), 900, CRAFTED_SHAPE),
    permStart: h(9) % CATALOGUE_SIZE,
    permStep: 1 + (h(10) % (CATALOGUE_SIZE - 1)),
    baseGames,
    favourites: player ? Math.min(baseGames, intIn(h(11), 1, 3)) : 0,
    playRatePerMille: player ? Math.floor(20 + unit(h(12)) * 380) : 0,
  };
}

/** Crafts completed after the epoch, up to and including tick t. */
export function craftsBy(a: Activity, tick: number): number {
  return a.craftPeriod === 0 ? 0 : Math.floor((tick + a.craftOffset - 1) / a.craftPeriod);
}

/** Tick of the k-th (1-based) post-epoch craft. */
export function craftTick(a: Activity, k: number): number {
  return k * a.craftPeriod - a.craftOffset + 1;
}

/** Catalogue index of the account's i-th app. */
export function appAt(a: Activity, i: number): number {
  return (a.permStart + i * a.permStep) % CATALOGUE_SIZE;
}
