/**
 * Scarcity histogram key: the power-of-ten bucket of the platform's holder count, written as its lower bound
 * (`"1"`, `"10"`, `"100"`, …), so a badge held by 4,321 accounts counts under `"1000"`.
 */
export function scarcityBucket(scarcity: number): string {
  if (scarcity < 1) return '0';
  return String(10 ** (String(Math.floor(scarcity)).length - 1));
}
