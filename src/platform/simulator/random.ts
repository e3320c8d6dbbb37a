/**
 * Deterministic randomness for the simulator.
 *
 * Every synthetic fact is a pure function of (seed, salt, small integers) so that any account can be generated on
 * demand, in O(1), without materialising the universe: this is what lets the simulator scale to a million
 * accounts and still answer byte-identically for the same seed and time.
 */

const TWO_32 = 4294967296;
// Module-level aliases: under jest's vm sandbox every global lookup (Math.*) goes through a slow interceptor, and
// hashing is the simulator's innermost loop.
const imul = Math.imul;
const floor = Math.floor;
const mathLog = Math.log;
const mathExp = Math.exp;
const mathMin = Math.min;
const mathMax = Math.max;

/** Finalizer from "hash prospector" (lowbias32): cheap and avalanches well enough for synthetic data. */
export function mix32(x: number): number {
  x = x >>> 0;
  x ^= x >>> 16;
  x = imul(x, 0x21f0aaad);
  x ^= x >>> 15;
  x = imul(x, 0x735a2d97);
  x ^= x >>> 15;
  return x >>> 0;
}

/** Folds a non-negative integer up to 2^53 into 32 bits, so large ticks or ids still hash distinctly. */
function fold(x: number): number {
  return ((x >>> 0) ^ imul(floor(x / TWO_32), 0x27d4eb2f)) >>> 0;
}

/** Hash of (seed, salt, a, b, c) → uint32. Salts keep unrelated facts about the same account independent. */
export function hash(seed: number, salt: number, a = 0, b = 0, c = 0): number {
  let h = mix32(fold(seed) ^ 0x9e3779b9);
  h = mix32(h ^ imul(salt + 1, 0x85ebca6b));
  h = mix32((h ^ fold(a)) + 0x165667b1);
  h = mix32((h ^ fold(b)) + 0xc2b2ae35);
  return mix32((h ^ fold(c)) + 0x27d4eb2f);
}

/** uint32 → [0, 1). */
export function unit(h: number): number {
  return h / TWO_32;
}

/** Integer in [min, max] from a uint32. */
export function intIn(h: number, min: number, max: number): number {
  return min + floor(unit(h) * (max - min + 1));
}

/** Heavy-tailed integer in [min, max]: log-uniform, so most values are small and a few are large. */
export function logUniformInt(h: number, min: number, max: number): number {
  const lo = mathLog(min);
  const v = floor(mathExp(lo + unit(h) * (mathLog(max + 1) - lo)));
  return mathMin(max, mathMax(min, v));
}

/**
 * Heavier-tailed integer in [1, max]: floor(exp(u^shape · ln(max + 1))). Shape 1 is log-uniform; a higher shape puts
 * more mass near 1 while the largest values stay reachable (shape 3 over 1..397: median 2, mean 26, p99 333).
 */
export function skewedInt(h: number, max: number, shape: number): number {
  return mathMin(max, mathMax(1, floor(mathExp(unit(h) ** shape * mathLog(max + 1)))));
}

export function pick<T>(items: readonly T[], h: number): T {
  return items[h % items.length];
}

/** 40 lowercase hex characters (avatar hashes, icon hashes), built from five chained hashes. */
export function hex40(seed: number, salt: number, a: number, b = 0): string {
  let out = '';
  for (let i = 0; i < 5; i++) out += hash(seed, salt, a, b, i).toString(16).padStart(8, '0');
  return out;
}

/** FNV-1a over UTF-16 code units; used to key market items by their hash name. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** mulberry32: a tiny sequential PRNG for bulk generation at startup (the friend graph). */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = mix32(seed) >>> 0;
  }

  nextU32(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  next(): number {
    return this.nextU32() / TWO_32;
  }

  int(n: number): number {
    return floor(this.next() * n);
  }
}

/** Named salts: one per kind of fact, so e.g. the persona name and the privacy flag do not correlate. */
export const Salt = {
  privacy: 1,
  persona: 2,
  vanity: 3,
  avatar: 4,
  created: 5,
  location: 6,
  realname: 7,
  activity: 8,
  bans: 9,
  groups: 10,
  badgeBase: 11,
  badgeSlot: 12,
  special: 13,
  games: 14,
  playtime: 15,
  graphWeight: 16,
  edge: 17,
  inventory: 18,
  market: 19,
  catalogue: 20,
  cards: 21,
  quests: 22,
  permutation: 23,
  communityItem: 24,
  persona2: 25,
  groupDetails: 26,
  groupOwner: 27,
  badgeArt: 28,
  cardDrops: 29,
} as const;
