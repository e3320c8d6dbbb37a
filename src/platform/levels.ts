/**
 * The platform's level rule (shared by the simulator and the leaderboards): going from level L to L+1 costs 100 * (floor(L / 10) + 1) xp, i.e. levels 0-10 cost
 * 100 each, 10-20 cost 200 each, and every further block of ten levels costs 100 more per level.
 */

/** Total xp needed to reach `level`. */
export function xpForLevel(level: number): number {
  const blocks = Math.floor(level / 10);
  const rest = level % 10;
  // Full blocks b = 0..blocks-1 cost 10 * 100 * (b + 1) each.
  return 500 * blocks * (blocks + 1) + rest * 100 * (blocks + 1);
}

/** Highest level whose cumulative requirement is covered by `xp`. */
export function levelForXp(xp: number): number {
  let level = 0;
  // Skip whole blocks of ten first: the loop runs at most a few dozen times even at absurd xp.
  while (xpForLevel(level + 10) <= xp) level += 10;
  while (xpForLevel(level + 1) <= xp) level += 1;
  return level;
}
