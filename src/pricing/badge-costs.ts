import { INT32_MAX } from '../common/wire/bounds';

/** The deprecated cost fields of a profile, USD cents. */
export interface BadgeCosts {
  /** The account's app (card) badges together: normal plus foil. */
  appCost: number;
  /** Its foil badges at today's foil set prices. */
  foilBadgeCost: number;
  /** Its normal badge levels at today's set prices: each level consumed one set. */
  normalBadgeCost: number;
}

export const NO_BADGE_COSTS: BadgeCosts = { appCost: 0, foilBadgeCost: 0, normalBadgeCost: 0 };

/** The cost fields of sums of cents; the wire fields are int32, so a collection worth more than $21M reads as the largest value. */
export function toBadgeCosts(normal: number, foil: number): BadgeCosts {
  const clamp = (cents: number) => Math.min(INT32_MAX, cents);
  return { appCost: clamp(normal + foil), foilBadgeCost: clamp(foil), normalBadgeCost: clamp(normal) };
}
