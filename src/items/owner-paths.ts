import { Reach, reachOver } from '../accounts/friend-graph.service';
import { NeighbourReader } from '../accounts/friends/friend-search';
import { serviceUnavailable } from '../common/problem/problem.exception';

/** The most accounts the searches around the caller and the owners may reach together before giving up (503). */
const MAX_VISITED = 200_000;

/** A search outward from one owner: each reached account's distance and the neighbours one step closer to it. */
interface Ball {
  distance: Map<number, number>;
  parents: Map<number, number[]>;
}

/**
 * The friend path from the caller to each owner within `maxDepth` hops, found by searching from both ends: the
 * caller's side to half the depth and each owner's side to the other half, meeting in the middle. A search from the
 * caller alone reaches everything within `maxDepth` hops — through a well-connected friend, tens of thousands of
 * accounts at depth 4 — for a page of at most 25 owners; two half-depth searches reach the square root of that.
 *
 * The path is the one a full search from the caller would list first (FriendGraphService.paths): shortest, and from
 * the owner back to the caller always through the lowest account id that is still on a shortest path.
 */
export async function ownerPaths(read: NeighbourReader, from: number, owners: number[], maxDepth: number): Promise<Map<number, number[]>> {
  const near = Math.ceil(maxDepth / 2);
  const far = maxDepth - near;
  const caller = await reachOver(read, from, near);
  const balls = await searchFrom(read, owners, far, caller.distance);
  const paths = new Map<number, number[]>();
  for (const owner of owners) {
    const path = owner === from ? [from] : pathThrough(caller, owner, balls.get(owner)!, near, far);
    if (path) paths.set(owner, path);
  }
  return paths;
}

/**
 * Breadth-first searches from every owner at once (one read per level for all of them). The last level only
 * matters where it meets the caller's search (`meeting`: farther accounts are on no path within reach), so only
 * those neighbours are kept.
 */
async function searchFrom(
  read: NeighbourReader,
  owners: number[],
  depth: number,
  meeting: Map<number, number>,
): Promise<Map<number, Ball>> {
  let visited = meeting.size;
  const balls = new Map(owners.map((owner): [number, Ball] => [owner, { distance: new Map([[owner, 0]]), parents: new Map() }]));
  let frontiers = new Map(owners.map((owner) => [owner, [owner]]));
  for (let level = 1; level <= depth; level++) {
    const ids = [...new Set([...frontiers.values()].flat())];
    if (!ids.length) break;
    const { lists } = await read(ids, Infinity);
    const neighbours = new Map(ids.map((id, i) => [id, lists[i]]));
    const last = level === depth;
    const next = new Map<number, number[]>();
    for (const [owner, frontier] of frontiers) {
      const ball = balls.get(owner)!;
      const reached: number[] = [];
      for (const a of frontier)
        for (const b of neighbours.get(a) ?? []) {
          if (last && !meeting.has(b)) continue;
          const known = ball.distance.get(b);
          if (known === undefined) {
            ball.distance.set(b, level);
            ball.parents.set(b, [a]);
            reached.push(b);
          } else if (known === level) ball.parents.get(b)!.push(a);
        }
      visited += reached.length;
      next.set(owner, reached);
    }
    if (visited > MAX_VISITED) throw serviceUnavailable('The friend graph around these accounts is too large to search now.');
    frontiers = next;
  }
  return balls;
}

/**
 * The caller–owner path through the two searches, or null beyond their reach. `caller` holds exact distances from
 * the caller up to `near`, `owner` exact distances from the owner up to `far`; every shortest path of at most
 * near + far hops crosses an account both reached, so the meeting points give the distance D.
 */
function pathThrough(caller: Reach, ownerId: number, owner: Ball, near: number, far: number): number[] | null {
  let distance = Infinity;
  for (const [id, fromOwner] of owner.distance) {
    const fromCaller = caller.distance.get(id);
    if (fromCaller !== undefined) distance = Math.min(distance, fromCaller + fromOwner);
  }
  if (distance === Infinity) return null;
  // Which accounts of the owner's search lie on a shortest path: exactly those at distance D − k from the caller
  // (k their distance from the owner). Within `near` the caller's search tells; farther out, an account is on one iff
  // it has a neighbour one step farther from the owner that is.
  const children = new Map<number, number[]>();
  for (const [id, parents] of owner.parents)
    for (const parent of parents) {
      const list = children.get(parent) ?? [];
      list.push(id);
      children.set(parent, list);
    }
  const onPath = new Map<number, boolean>();
  const isOnPath = (id: number): boolean => {
    const known = onPath.get(id);
    if (known !== undefined) return known;
    const k = owner.distance.get(id)!;
    const result =
      distance - k <= near
        ? caller.distance.get(id) === distance - k
        : k < far && (children.get(id) ?? []).some((child) => owner.distance.get(child) === k + 1 && isOnPath(child));
    onPath.set(id, result);
    return result;
  };
  // From the owner back to the caller, always the lowest account id one step closer to the caller.
  const path = [ownerId];
  for (let step = 1; step <= distance; step++) {
    const at = path[path.length - 1];
    const k = owner.distance.get(at);
    const closer =
      k !== undefined && k < far
        ? (children.get(at) ?? []).filter((id) => owner.distance.get(id) === k + 1 && isOnPath(id))
        : (caller.parents.get(at) ?? []);
    path.push(Math.min(...closer));
  }
  return path.reverse();
}
