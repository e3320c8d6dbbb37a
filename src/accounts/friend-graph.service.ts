import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { serviceUnavailable } from '../common/problem/problem.exception';
import { NeighbourReader } from './friends/friend-search';

/** The most accounts one search may reach before it gives up with a 503 (a hub-heavy graph grows fast). */
const MAX_VISITED = 200_000;

/** Breadth-first search result: each reached account's distance and the neighbours it was reached from. */
export interface Reach {
  distance: Map<number, number>;
  parents: Map<number, number[]>;
}

/**
 * The friend graph as stored: undirected, from every friend list the service has read, read from PostgreSQL one
 * query per level. `account.findFriendPath` and `item.findOwners` search the copy in memory (FriendGraphCache) once it
 * is loaded, and read here until then.
 */
@Injectable()
export class FriendGraphService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The friends of each of `ids` as stored (either side of a row; a friendship stored from both sides comes once), at
   * most `limit` rows read: one query per level of a search, two index ranges per account (the primary key and
   * ix_account_friends_friend). Used while the in-memory graph (FriendGraphCache) loads, and to keep it in step.
   */
  readonly neighbours: NeighbourReader = async (ids, limit) => {
    const rows: { a: number; b: number }[] = await this.dataSource.query(
      `SELECT account_id AS a, friend_account_id AS b FROM account_friends WHERE account_id = ANY($1)
       UNION ALL
       SELECT friend_account_id AS a, account_id AS b FROM account_friends WHERE friend_account_id = ANY($1)
       LIMIT $2`,
      [ids, Number.isFinite(limit) ? limit : null],
    );
    const sets = new Map<number, Set<number>>();
    for (const { a, b } of rows) {
      const set = sets.get(a);
      if (set) set.add(b);
      else sets.set(a, new Set([b]));
    }
    return { lists: ids.map((id) => [...(sets.get(id) ?? [])]), edges: rows.length };
  };

  /**
   * Searches outward from `from` up to `maxDepth` hops, never through `exclude`, stopping after the level at
   * which `target` (if given) is reached. Every shortest-path parent is kept, so all shortest paths can be listed.
   */
  reach(from: number, maxDepth: number, options: { target?: number; exclude?: Set<number> } = {}): Promise<Reach> {
    return reachOver(this.neighbours, from, maxDepth, options);
  }

  /** Up to `limit` shortest paths from the search's origin to `target`, each origin first. */
  static paths(reach: Reach, target: number, limit: number): number[][] {
    if (!reach.distance.has(target)) return [];
    const found: number[][] = [];
    const walk = (node: number, suffix: number[]): void => {
      if (found.length >= limit) return;
      const from = reach.parents.get(node);
      if (!from) {
        found.push([node, ...suffix]);
        return;
      }
      for (const parent of [...from].sort((x, y) => x - y)) walk(parent, [node, ...suffix]);
    };
    walk(target, []);
    return found;
  }
}

/** FriendGraphService.reach over any reader of the graph (the stored rows, or the copy in memory). */
export async function reachOver(
  read: NeighbourReader,
  from: number,
  maxDepth: number,
  options: { target?: number; exclude?: Set<number> } = {},
): Promise<Reach> {
  const distance = new Map([[from, 0]]);
  const parents = new Map<number, number[]>();
  let frontier = [from];
  for (let depth = 1; depth <= maxDepth && frontier.length && !distance.has(options.target ?? -1); depth++) {
    const { lists } = await read(frontier, Infinity);
    const next: number[] = [];
    for (const [i, friends] of lists.entries()) {
      const a = frontier[i];
      for (const b of friends) {
        if (options.exclude?.has(b) && b !== options.target) continue;
        const known = distance.get(b);
        if (known === undefined) {
          distance.set(b, depth);
          parents.set(b, [a]);
          next.push(b);
        } else if (known === depth) {
          parents.get(b)!.push(a);
        }
      }
    }
    if (distance.size > MAX_VISITED) throw serviceUnavailable('The friend graph around these accounts is too large to search now.');
    // Only accounts on the frontier are expanded further; the target ends the search at its own level.
    frontier = next.filter((id) => id !== options.target);
  }
  return { distance, parents };
}
