import { FriendGraphService, Reach } from '../../src/accounts/friend-graph.service';

/** Who an account's friends are, however a test keeps its graph. */
export type FriendsOf = (accountId: number) => Iterable<number>;

/**
 * The answer of the former one-sided search, the tests' oracle for `account.findFriendPath`: breadth-first from
 * `from` until `to`'s level, every shortest-path parent kept, then FriendGraphService.paths to list them.
 */
export function referenceFriendPaths(
  friendsOf: FriendsOf,
  from: number,
  to: number,
  options: { exclude?: Set<number>; maxDepth?: number; limit: number },
): number[][] {
  const { exclude = new Set<number>(), maxDepth = 6, limit } = options;
  const reach: Reach = { distance: new Map([[from, 0]]), parents: new Map() };
  let frontier = [from];
  for (let depth = 1; depth <= maxDepth && frontier.length && !reach.distance.has(to); depth++) {
    const next: number[] = [];
    for (const a of frontier)
      for (const b of friendsOf(a)) {
        if (exclude.has(b)) continue;
        const known = reach.distance.get(b);
        if (known === undefined) {
          reach.distance.set(b, depth);
          reach.parents.set(b, [a]);
          next.push(b);
        } else if (known === depth) reach.parents.get(b)!.push(a);
      }
    frontier = next.filter((id) => id !== to);
  }
  return FriendGraphService.paths(reach, to, limit);
}
