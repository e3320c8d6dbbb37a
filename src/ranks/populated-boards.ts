/**
 * When a rank means something beyond the moment: a best rank (`currentBestRanks`) and a rank milestone (activity
 * `rank_milestone`) count only on a *populated* board. A board's scope is populated once it holds at least
 * `POPULATED_BOARD_MIN_ACCOUNTS` tracked accounts (its population, the `totals` of the profile's ranks): the first
 * accounts refreshed on a fresh service all rank #1 somewhere, which says nothing about them. A zero value is never
 * ranked (rank 0), so it never counts either.
 *
 * A best rank carries the total of its scope when it was reached (`BestLeaderboardRank.totals`, an extension of the
 * wire: "#3 of 12,000" and "#3 of 150" are different claims).
 */

/** The top-N buckets of `rank_milestone` events (`V1ActivityRankChange.bucket`), tightest first. */
export const RANK_MILESTONES = [10, 100, 1000] as const;

/** Whether a rank in a scope of `total` tracked accounts counts (best ranks, milestones). */
export function rankCounts(rank: number, total: number, minAccounts: number): boolean {
  return rank > 0 && total >= minAccounts;
}

/** The better of a kept best (rank 0: none) and a new rank that counts: the lower rank, the kept one on a tie. */
export function betterRank(kept: number, rank: number): boolean {
  return rank > 0 && (kept === 0 || rank < kept);
}

/**
 * The tightest top-N bucket a rank entered since the previous one (0: unranked before), or null. A bucket counts only
 * on a board holding more than N accounts (a top 1000 of a board of 300 is no distinction), and only when the new
 * rank counts (rankCounts).
 */
export function enteredBucket(previous: number, current: number, total: number, minAccounts: number): number | null {
  if (!rankCounts(current, total, minAccounts)) return null;
  for (const top of RANK_MILESTONES) {
    if (total <= top) return null;
    if (current <= top && (previous === 0 || previous > top)) return top;
    if (current <= top) return null;
  }
  return null;
}
