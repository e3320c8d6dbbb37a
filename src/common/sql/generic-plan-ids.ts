/**
 * A prepared statement's generic plan assumes that an array parameter holds ten elements (PostgreSQL's
 * `estimate_array_length` for an array it cannot see); a custom plan knows the real length. Given fewer ids, the
 * custom plan of `… WHERE account_id = ANY($1)` always looks cheaper, so PostgreSQL never settles on the generic plan
 * and plans the statement again on every execution: for the cards of one to three accounts (a rank preview) that
 * costs ~0.25 ms of its CPU against ~0.13 ms of execution (docs/performance-history.md, "Small id arrays").
 */
export const GENERIC_PLAN_ARRAY_LENGTH = 10;

/**
 * `ids` as an `= ANY($n)` parameter that lets the plan cache keep its generic plan: fewer than ten are padded by
 * repeating the last one. The repeats change no answer (`= ANY` matches a row once, and a btree scan drops repeated
 * keys before it reads); ten ids or more are passed as they are.
 */
export function idsForGenericPlan<T extends number | string>(ids: readonly T[]): T[] {
  const padded = [...ids];
  while (padded.length && padded.length < GENERIC_PLAN_ARRAY_LENGTH) padded.push(padded[padded.length - 1]);
  return padded;
}
