import { FriendAdjacency, FriendRows } from '../../src/accounts/friends/friend-adjacency';
import { findFriendPaths, FriendSearchOptions, NeighbourReader } from '../../src/accounts/friends/friend-search';
import { referenceFriendPaths } from '../support/reference-friend-paths';

/** A small deterministic generator (xorshift), so failures reproduce. */
function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/** Stored rows of a graph: each friendship from one side or both, as lists of public and private accounts give. */
function rowsOf(edges: [number, number][], next: () => number): FriendRows {
  const rows = new FriendRows();
  for (const [a, b] of edges) {
    const side = next();
    if (side < 0.4) rows.push(a, b);
    else if (side < 0.8) rows.push(b, a);
    else {
      rows.push(a, b);
      rows.push(b, a);
    }
  }
  return rows;
}

const graphOf = (edges: [number, number][], seed = 1) => FriendAdjacency.fromRows(rowsOf(edges, random(seed)));

/** The graph's reader, recording the accounts each level read. */
function readerOf(graph: FriendAdjacency): NeighbourReader & { levels: number[][] } {
  const levels: number[][] = [];
  const reader: NeighbourReader = (ids, limit) => {
    levels.push([...ids]);
    return graph.read(ids, limit);
  };
  return Object.assign(reader, { levels });
}

/** The answer of the former one-sided search over `graph`. */
const reference = (graph: FriendAdjacency, from: number, to: number, exclude: Set<number>, maxDepth: number, limit: number) =>
  referenceFriendPaths((id) => graph.friendsOf(id), from, to, { exclude, maxDepth, limit });

const options = (extra: Partial<FriendSearchOptions> = {}): FriendSearchOptions => ({
  exclude: new Set(),
  maxDepth: 6,
  maxEdges: 100_000,
  maxPaths: 10,
  ...extra,
});

const chain = (length: number, start = 1): [number, number][] => Array.from({ length }, (_, i) => [start + i, start + i + 1]);

describe('findFriendPaths (bidirectional search)', () => {
  it('should find chains of every length from 1 to 6, and none of 7', async () => {
    const graph = await graphOf(chain(7));
    for (let hops = 1; hops <= 6; hops++) {
      const result = await findFriendPaths(1, 1 + hops, options(), readerOf(graph));
      expect(result.paths).toEqual([Array.from({ length: hops + 1 }, (_, i) => 1 + i)]);
      expect(result.exhausted).toBe(false);
    }
    const beyond = await findFriendPaths(1, 8, options(), readerOf(graph));
    expect(beyond).toMatchObject({ paths: [], exhausted: false });
    // The bound is the depth: a shorter one stops earlier.
    expect((await findFriendPaths(1, 4, options({ maxDepth: 2 }), readerOf(graph))).paths).toEqual([]);
  });

  it('should read one level per call, expanding the smaller frontier, and never past the depth bound', async () => {
    // A hub (100) with 30 friends next to `from`; `to` at the end of a chain: the search grows from `to`'s side.
    const edges: [number, number][] = [
      [1, 100],
      ...Array.from({ length: 30 }, (_, i): [number, number] => [100, 300 + i]),
      [329, 400],
      ...chain(2, 400),
    ];
    const graph = await graphOf(edges);
    const reader = readerOf(graph);
    const result = await findFriendPaths(1, 402, options(), reader);
    expect(result.paths).toEqual([[1, 100, 329, 400, 401, 402]]);
    expect(result.levels).toBe(5);
    // Past the hub the source's frontier holds 30 accounts: the rest of the search grows from `to`, one at a time.
    expect(reader.levels).toEqual([[1], [100], [402], [401], [400]]);
    const apart = await graphOf([...chain(4, 1), ...chain(4, 11), [5, 11]]); // 1 … 5 – 11 … 15: nine hops
    const bounded = readerOf(apart);
    expect((await findFriendPaths(1, 15, options(), bounded)).paths).toEqual([]);
    expect(bounded.levels.length).toBe(6);
  });

  it('should list the N shortest paths in the order of the former search, for every N', async () => {
    // A 4 x 4 grid: 20 shortest paths between opposite corners.
    const id = (r: number, c: number) => 1 + r * 4 + c;
    const edges: [number, number][] = [];
    for (let r = 0; r < 4; r++)
      for (let c = 0; c < 4; c++) {
        if (c < 3) edges.push([id(r, c), id(r, c + 1)]);
        if (r < 3) edges.push([id(r, c), id(r + 1, c)]);
      }
    const graph = await graphOf(edges);
    for (const maxPaths of [1, 2, 7, 20, 50]) {
      const { paths } = await findFriendPaths(1, 16, options({ maxPaths }), readerOf(graph));
      expect(paths).toEqual(reference(graph, 1, 16, new Set(), 6, maxPaths));
      expect(paths).toHaveLength(Math.min(maxPaths, 20));
      expect(new Set(paths.map((p) => p.join('>'))).size).toBe(paths.length);
    }
  });

  it('should route around excluded accounts, and find nothing when they cut every path', async () => {
    const graph = await graphOf([...chain(3, 1), [1, 10], [10, 11], [11, 12], [12, 4]]);
    expect((await findFriendPaths(1, 4, options(), readerOf(graph))).paths).toEqual([[1, 2, 3, 4]]);
    expect((await findFriendPaths(1, 4, options({ exclude: new Set([2]) }), readerOf(graph))).paths).toEqual([[1, 10, 11, 12, 4]]);
    expect((await findFriendPaths(1, 4, options({ exclude: new Set([3, 11]) }), readerOf(graph))).paths).toEqual([]);
  });

  it('should give up past the budget of friendships read, saying so', async () => {
    const star: [number, number][] = Array.from({ length: 50 }, (_, i) => [1, 100 + i]);
    const graph = await graphOf([...star, ...Array.from({ length: 50 }, (_, i): [number, number] => [2, 100 + i])]);
    expect((await findFriendPaths(1, 2, options(), readerOf(graph))).paths).toHaveLength(10);
    expect(await findFriendPaths(1, 2, options({ maxEdges: 20 }), readerOf(graph))).toMatchObject({ paths: [], exhausted: true });
  });

  it('should answer exactly as the former search on random heavy-tailed graphs', async () => {
    const lengths = new Set<number>();
    let unreachable = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const next = random(seed);
      const n = 150;
      // Chung-Lu over Pareto weights, like the simulator's friend graph (scaled down).
      const weights = Array.from({ length: n }, () => Math.min(40, 1.2 * (1 - next()) ** (-1 / 1.5)));
      const total = weights.reduce((a, b) => a + b, 0);
      const edges: [number, number][] = [];
      for (let a = 0; a < n; a++)
        for (let b = a + 1; b < n; b++) if (next() < (weights[a] * weights[b]) / total) edges.push([a + 1, b + 1]);
      const graph = await graphOf(edges, seed);
      for (let pair = 0; pair < 60; pair++) {
        const from = 1 + Math.floor(next() * n);
        const to = 1 + Math.floor(next() * n);
        if (from === to) continue;
        const exclude = new Set(
          pair % 3 ? [] : [1 + Math.floor(next() * n), 1 + Math.floor(next() * n)].filter((x) => x !== from && x !== to),
        );
        const maxPaths = [1, 3, 10, 50][pair % 4];
        const maxDepth = 2 + (pair % 5);
        const { paths } = await findFriendPaths(from, to, options({ exclude, maxPaths, maxDepth }), readerOf(graph));
        expect(paths).toEqual(reference(graph, from, to, exclude, maxDepth, maxPaths));
        if (paths.length) lengths.add(paths[0].length - 1);
        else unreachable++;
      }
    }
    // The pairs cover short and long paths and pairs with none within the bound.
    expect([...lengths].sort()).toEqual([1, 2, 3, 4, 5]);
    expect(unreachable).toBeGreaterThan(10);
  });

  it('should answer the same when searches run side by side and their sides outgrow the first tables', async () => {
    // A sparse random graph of 30,000 accounts, and two hubs of 6,000 friends each whose friends are paired off: from
    // one hub to the other a side reaches 6,000 accounts in one level, more than a table's first slots hold (8,192,
    // half of them used before it grows). Each read waits a turn, so the searches interleave and reuse the tables.
    const next = random(42);
    const n = 30_000;
    const edges: [number, number][] = [];
    for (let a = 1; a <= n; a++) for (let k = 0; k < 4; k++) edges.push([a, 1 + Math.floor(next() * n)]);
    const [hub, otherHub] = [100_001, 100_002];
    for (let i = 0; i < 6_000; i++) edges.push([hub, 110_000 + i], [otherHub, 120_000 + i], [110_000 + i, 120_000 + i]);
    edges.push([hub, 1]);
    const graph = await graphOf(
      edges.filter(([a, b]) => a !== b),
      42,
    );
    const waiting: NeighbourReader = async (ids, limit) => {
      await new Promise((resolve) => setImmediate(resolve));
      return graph.read(ids, limit);
    };
    const pairs = Array.from({ length: 24 }, (_, i) =>
      i % 4 === 0
        ? [hub, otherHub]
        : i % 4 === 1
          ? [otherHub, 1 + Math.floor(next() * n)]
          : [1 + Math.floor(next() * n), 1 + Math.floor(next() * n)],
    );
    const search = (asked: number[][]) =>
      Promise.all(asked.map(([from, to]) => findFriendPaths(from, to, options({ maxPaths: 50 }), waiting)));
    const answers = await search(pairs);
    answers.forEach(({ paths }, i) => expect(paths).toEqual(reference(graph, pairs[i][0], pairs[i][1], new Set(), 6, 50)));
    expect(answers.filter(({ paths }) => paths.length).length).toBeGreaterThan(12);
    expect(answers[0].paths).toHaveLength(50);
    expect(answers[0].edges).toBeGreaterThan(20_000);
    // Again, in the other order, on the tables the first round left: nothing of the first round may show.
    const again = await search([...pairs].reverse());
    expect(again.map(({ paths }) => paths).reverse()).toEqual(answers.map(({ paths }) => paths));
    // And from memory as the API reads it (each level at once), on the same tables: the same answers.
    const fromMemory = await Promise.all(pairs.map(([from, to]) => findFriendPaths(from, to, options({ maxPaths: 50 }), graph.read)));
    expect(fromMemory.map(({ paths }) => paths)).toEqual(answers.map(({ paths }) => paths));
  });

  it('should run a search over a reader that answers at once to its end before another begins', async () => {
    const next = random(7);
    const edges: [number, number][] = [];
    for (let a = 1; a <= 2_000; a++) for (let k = 0; k < 3; k++) edges.push([a, 1 + Math.floor(next() * 2_000)]);
    const graph = await graphOf(
      edges.filter(([a, b]) => a !== b),
      7,
    );
    const reads: number[] = [];
    const searches = Array.from({ length: 12 }, (_, i) =>
      findFriendPaths(1 + i, 2_000 - i, options(), (ids, limit) => {
        reads.push(i);
        return graph.read(ids, limit);
      }),
    );
    const answers = await Promise.all(searches);
    // Each search's reads come together: none yielded to another between its levels (each search reads several).
    expect(reads).toEqual([...reads].sort((a, b) => a - b));
    expect(answers.every(({ levels }) => levels >= 2)).toBe(true);
  });
});

describe('FriendAdjacency', () => {
  it('should hold each friendship once, in both directions, whichever side stored it', async () => {
    const rows = new FriendRows(2);
    for (const [a, b] of [
      [5, 9],
      [9, 5],
      [5, 7],
      [7, 7],
      [2_000_000_000, 5],
      [5, 9],
    ])
      rows.push(a, b);
    const graph = await FriendAdjacency.fromRows(rows);
    expect([...graph.friendsOf(5)]).toEqual([7, 9, 2_000_000_000]);
    expect([...graph.friendsOf(9)]).toEqual([5]);
    expect([...graph.friendsOf(7)]).toEqual([5]);
    expect([...graph.friendsOf(2_000_000_000)]).toEqual([5]);
    expect([...graph.friendsOf(42)]).toEqual([]);
    expect(graph.stats()).toMatchObject({ accounts: 4, friendships: 3 });
  });

  it('should keep both sides in step when a list is replaced, and keep it through a compaction', async () => {
    const graph = await graphOf([...chain(4), [1, 3]]);
    graph.replace(3, [2, 4, 50, 50, 3]); // loses 1, gains 50 (not in the arrays yet), drops itself
    expect([...graph.friendsOf(3)]).toEqual([2, 4, 50]);
    expect([...graph.friendsOf(1)]).toEqual([2]);
    expect([...graph.friendsOf(50)]).toEqual([3]);
    graph.replace(3, [2, 4, 50]);
    expect(graph.changedLists).toBe(3);
    const compacted = await graph.compacted();
    for (const id of [1, 2, 3, 4, 5, 50]) expect([...compacted.friendsOf(id)]).toEqual([...graph.friendsOf(id)]);
    expect(compacted.changedLists).toBe(0);
    expect(compacted.stats()).toMatchObject({ accounts: 6, friendships: 5 });
  });
});
