/** One badge an account holds, as stored in `account_badges`. */
export interface Holding {
  badgeId: number;
  level: number;
  xp: number;
  completionTime: Date;
}

/** How an account's badges changed in one update. */
export interface HoldingsDiff {
  /** Held before, not any more. */
  removed: Holding[];
  /** Newly held. */
  added: Holding[];
  /** Held before and after, with a different level, xp or completion time. */
  changed: { before: Holding; after: Holding }[];
}

/** Keeps the first holding of each badge, as the insert into `account_badges` would. */
export function uniqueHoldings(holdings: Holding[]): Holding[] {
  const byBadge = new Map<number, Holding>();
  for (const holding of holdings) if (!byBadge.has(holding.badgeId)) byBadge.set(holding.badgeId, holding);
  return [...byBadge.values()];
}

/** The difference between the badges held before and after an update (`after` already unique by badge). */
export function diffHoldings(before: Holding[], after: Holding[]): HoldingsDiff {
  const previous = new Map(before.map((holding) => [holding.badgeId, holding]));
  const diff: HoldingsDiff = { removed: [], added: [], changed: [] };
  for (const holding of after) {
    const old = previous.get(holding.badgeId);
    previous.delete(holding.badgeId);
    if (!old) diff.added.push(holding);
    else if (old.level !== holding.level || old.xp !== holding.xp || old.completionTime.getTime() !== holding.completionTime.getTime())
      diff.changed.push({ before: old, after: holding });
  }
  diff.removed = [...previous.values()];
  return diff;
}
