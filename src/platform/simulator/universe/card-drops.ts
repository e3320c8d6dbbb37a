import { Salt, hash } from '../random';
import type { CatalogueApp } from './catalogue';

/** Minutes of play per card drop earned. */
export const MINUTES_PER_DROP = 30;

/**
 * Card drops an account has left of a game it owns, as its badge page shows them ("N card drops remaining"). Like
 * the platform, a game drops at most half its set (rounded up), earned with play: one drop per MINUTES_PER_DROP
 * minutes of playtime. Some of the earned drops have dropped already: a fixed share per (account, app), so the count
 * is a pure function of the playtime (it grows as a favourite game is played, never below 0).
 */
export function cardDropsRemaining(seed: number, accountId: number, app: CatalogueApp, playtimeMinutes: number): number {
  const earned = Math.min(Math.ceil(app.cards.length / 2), Math.floor(playtimeMinutes / MINUTES_PER_DROP));
  const droppedShare = hash(seed, Salt.cardDrops, accountId, app.index) % 4; // 0..3 quarters of the earned drops
  return earned - Math.floor((earned * droppedShare) / 4);
}
