import Redis from 'ioredis';
import { RankTable, writeRankTable } from '../../src/ranks/rank-build';
import { RankKeys } from '../../src/ranks/rank-keys';
import { RankRow, cellOfRow } from '../../src/ranks/rank-rows';
import { RANKED_COLUMNS, SCOPE_LEVELS, levelOfScope, memberOf, scopeKeysOf } from '../../src/ranks/rank-scopes';
import { REDIS_URL, clearRedisPrefix, uniqueName } from '../support/test-app';

const CITIES = [
  ['Europe', 'Germany', 'Berlin', 'Berlin'],
  ['Europe', 'Germany', 'Bavaria', 'Munich'],
  ['Europe', 'France', null, 'Paris'],
  ['Asia', 'Japan', 'Tokyo', 'Tokyo'],
  [null, null, null, null],
] as const;

/** Rank rows of `n` accounts; `variant` changes scores, and in variant 1 nobody lives in Munich any more. */
function rows(n: number, variant: number): RankRow[] {
  return Array.from({ length: n }, (_, i) => {
    const id = 10 + i * 3;
    const city = CITIES[(i + variant) % CITIES.length];
    const [region, country, state, town] = variant === 1 && city[3] === 'Munich' ? CITIES[0] : city;
    const row: RankRow = { account_id: id, region, country_name: country, state_name: state, city_name: town };
    row.country_code = country ? country.slice(0, 2).toUpperCase() : null;
    // Scores repeat (ties) and are 0 for some accounts on some columns (absent from those boards).
    RANKED_COLUMNS.forEach(
      (column, c) => (row[column] = ((id * (c + 7) + variant * 13) % 23) - 3 > 0 ? ((id * (c + 7) + variant * 13) % 23) - 3 : 0),
    );
    return row;
  });
}

function tableOf(list: RankRow[]): RankTable {
  const table = new RankTable();
  list.forEach((row) => table.add(row));
  return table;
}

/** `column|scope` → members and scores in ZRANGE order (an object: Jest compares Maps' entries pairwise, slowly). */
type Boards = Record<string, string[]>;

/** Every board a full recomputation gives. */
function expectedBoards(list: RankRow[]): Boards {
  const boards = new Map<string, { score: number; member: string }[]>();
  for (const row of list)
    for (const scope of Object.values(scopeKeysOf(cellOfRow(row))))
      for (const column of RANKED_COLUMNS) {
        const score = Number(row[column]);
        if (score <= 0) continue;
        const key = `${column}|${scope}`;
        boards.set(key, [...(boards.get(key) ?? []), { score, member: memberOf(row.account_id) }]);
      }
  return Object.fromEntries(
    [...boards].map(([key, entries]) => [
      key,
      entries.sort((a, b) => a.score - b.score || (a.member < b.member ? -1 : 1)).flatMap(({ score, member }) => [member, String(score)]),
    ]),
  );
}

describe('rank builds (rank-build.ts)', () => {
  let redis: Redis;
  const prefix = uniqueName('rankbuild');
  const keys = new RankKeys({ redisPrefix: prefix });
  const before = rows(400, 0);
  const after = rows(400, 1);

  // Every (column, scope) either population has a board for: the keys a version may hold (no KEYS over the server).
  const candidates = [...new Set([...Object.keys(expectedBoards(before)), ...Object.keys(expectedBoards(after))])].map((key) => ({
    column: key.split('|')[0],
    scope: key.split('|').slice(1).join('|'),
  }));

  /** The boards stored under a version, in the shape of expectedBoards. */
  async function storedBoards(version: string, only?: (column: string, scope: string) => boolean): Promise<Boards> {
    const boards = candidates.filter(({ column, scope }) => !only || only(column, scope));
    const pipeline = redis.pipeline();
    for (const { column, scope } of boards) pipeline.zrange(keys.board(version, column, scope), 0, -1, 'WITHSCORES');
    const results = (await pipeline.exec())!.map(([, result]) => result as string[]);
    return Object.fromEntries(boards.flatMap(({ column, scope }, i) => (results[i].length ? [[`${column}|${scope}`, results[i]]] : [])));
  }
  const canonical = (boards: Boards) => JSON.stringify(Object.entries(boards).sort(([a], [b]) => (a < b ? -1 : 1)));
  const subset = (boards: Boards, only: (column: string, scope: string) => boolean): Boards =>
    Object.fromEntries(Object.entries(boards).filter(([key]) => only(key.split('|')[0], key.split('|').slice(1).join('|'))));

  beforeAll(() => {
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    await clearRedisPrefix(prefix);
    await redis.quit();
  });

  it('should give a set the order Redis keeps it in: score ascending, then member ascending', () => {
    const table = tableOf(before);
    RANKED_COLUMNS.forEach((column, c) => {
      const members = [...table.rankOrder(c)].map((slot) => ({ member: memberOf(table.ids[slot]), score: table.scores[c][slot] }));
      const expected = before
        .filter((row) => Number(row[column]) > 0)
        .map((row) => ({ member: memberOf(row.account_id), score: Number(row[column]) }))
        .sort((a, b) => a.score - b.score || (a.member < b.member ? -1 : 1));
      expect(members).toEqual(expected);
    });
  });

  it('should fill a fresh version with every board and scope hash when none is served', async () => {
    await writeRankTable(redis, keys, tableOf(before), { fresh: '1', served: null });
    expect(await storedBoards('1')).toEqual(expectedBoards(before));
    const population = await redis.hgetall(keys.population('1'));
    expect(population.g).toBe('400');
    expect(Number(population['c:germany'])).toBe(before.filter((row) => row.country_name === 'Germany').length);
    expect(await redis.hget(keys.placement('1'), '10')).toBe(cellOfRow(before[0]));
    expect(await redis.hgetall(keys.countries('1'))).toEqual({ germany: 'GE', france: 'FR', japan: 'JA' });
  });

  it('should switch a served version group by group, whole boards at a time, never holding two groups staged', async () => {
    const old = expectedBoards(before);
    const next = expectedBoards(after);
    const switched = new Set<string>();
    let groups = 0;
    await writeRankTable(redis, keys, tableOf(after), { fresh: '2', served: '1' }, async ({ column, level }) => {
      groups++;
      switched.add(`${column}|${level}`);
      // Nothing of the group is left staged: the fresh version holds no board at any group's end.
      expect(await storedBoards('2')).toEqual({});
      // Switched groups hold the new boards, the others still the old ones; each board is whole either way.
      const done = (c: string, scope: string) => switched.has(`${c}|${levelOfScope(scope)}`);
      // Compared as JSON: 75 groups of deep comparisons by Jest's matcher would take seconds.
      expect(canonical(await storedBoards('1', done))).toBe(canonical(subset(next, done)));
      const pending = (c: string, scope: string) => !done(c, scope);
      expect(canonical(await storedBoards('1', pending))).toBe(canonical(subset(old, pending)));
    });
    expect(groups).toBe(RANKED_COLUMNS.length * SCOPE_LEVELS.length);
    expect(await storedBoards('1')).toEqual(next);
    // Munich's boards are gone with the last account there; the hashes say the same.
    expect(Object.keys(await storedBoards('1')).some((key) => key.includes('munich'))).toBe(false);
    const population = await redis.hgetall(keys.population('1'));
    expect(population['t:germany|bavaria|munich']).toBeUndefined();
    expect(Number(population['t:germany|berlin|berlin'])).toBe(after.filter((row) => row.city_name === 'Berlin').length);
    expect(await redis.hget(keys.placement('1'), String(after[1].account_id))).toBe(cellOfRow(after[1]));
    expect(await redis.keys(`${prefix}:ranks:v2:*`)).toEqual([]);
  });
});
