/**
 * # Rank builds
 *
 * How the rank engine fills its boards from PostgreSQL (RankEngine.build). Every refreshed account's row is read
 * once into a columnar table in this process (RankTable: ids, cells and one score array per column, ~110 bytes an
 * account with its member string), then the boards are written one group at a time, a group being one column's
 * boards on one scope level (xp's global board; then xp's region boards; …; then the next column). Within a set,
 * members go in in rank order, so Redis allocates rank neighbours next to each other and a rank read's last steps
 * touch nearby memory (docs/architecture.md, "Layout").
 *
 * With no version served (a first start, a flushed Redis) the groups go straight into the fresh version, which the
 * engine then serves. With a version served (an operator's rebuild, a restore, a seed over a built prefix) each
 * group is written under the fresh version as a staging area and then, in one MULTI, renamed over the served
 * version's keys of that group, scopes that are gone dropped with it. So Redis holds the served boards plus one
 * group (at most one entry per account: ~100 MB at a million accounts), never every board twice, and readers see
 * each board switch whole. The scope hashes (populations, cells, placements, countries) switch last, the same way.
 */
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { OneBatchInFlight, execOrThrow } from '../common/redis/redis-batch';
import { RankKeys } from './rank-keys';
import { RankRow, cellOfRow, countryEntryOf, readRankRows } from './rank-rows';
import { RANKED_COLUMNS, SCOPE_LEVELS, ScopeLevel, levelOfScope, memberOf, scopeKeysOf } from './rank-scopes';

/** Score/member pairs sent per pipeline while a group is written. */
const FLUSH_PAIRS = 20_000;
/** Field/value pairs per HSET of the placements. */
const HASH_PAIRS = 10_000;

/** Every refreshed account's cell and ranked scores, column by column, in account id order. */
export class RankTable {
  size = 0;
  ids = new Int32Array(1024);
  /** Per account, the index of its cell in `cells`. */
  cellOf = new Int32Array(1024);
  readonly cells: string[] = [];
  /** Per column of RANKED_COLUMNS, per account: the columns are PostgreSQL `integer`s. */
  scores: Int32Array<ArrayBuffer>[] = RANKED_COLUMNS.map(() => new Int32Array(1024));
  /** Lower-cased country name → country code, as the location filters need them. */
  readonly countries = new Map<string, string>();
  private readonly cellIndex = new Map<string, number>();
  private members: string[] = [];

  add(row: RankRow): void {
    if (this.size === this.ids.length) this.grow();
    const slot = this.size++;
    const cell = cellOfRow(row);
    let index = this.cellIndex.get(cell);
    if (index === undefined) this.cellIndex.set(cell, (index = this.cells.push(cell) - 1));
    this.ids[slot] = row.account_id;
    this.cellOf[slot] = index;
    RANKED_COLUMNS.forEach((column, c) => (this.scores[c][slot] = Number(row[column])));
    const country = countryEntryOf(row);
    if (country) this.countries.set(...country);
  }

  /** The sorted-set member of the account in `slot`, made once per build. */
  member(slot: number): string {
    return (this.members[slot] ??= memberOf(this.ids[slot]));
  }

  /**
   * The slots scoring above 0 on a column, in the order Redis keeps a board (ZRANGE): score ascending, then member
   * ascending, which is account id descending (memberOf). Inserting in this order lays a set out in rank order.
   */
  rankOrder(column: number): Uint32Array {
    const scores = this.scores[column];
    let scoring = 0;
    for (let slot = 0; slot < this.size; slot++) if (scores[slot] > 0) scoring++;
    const order = new Uint32Array(scoring);
    for (let slot = 0, i = 0; slot < this.size; slot++) if (scores[slot] > 0) order[i++] = slot;
    return order.sort((a, b) => scores[a] - scores[b] || this.ids[b] - this.ids[a]);
  }

  private grow(): void {
    const widen = (array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => {
      const wider = new Int32Array(array.length * 2);
      wider.set(array);
      return wider;
    };
    this.ids = widen(this.ids);
    this.cellOf = widen(this.cellOf);
    this.scores = this.scores.map(widen);
  }
}

/** Reads every refreshed account's rank row from PostgreSQL, in keyset batches. */
export async function readRankTable(dataSource: DataSource): Promise<RankTable> {
  const table = new RankTable();
  await readRankRows(dataSource, (rows) => rows.forEach((row) => table.add(row)));
  return table;
}

/** One column's boards on one scope level: what a build writes, and (over a served version) switches, at a time. */
export interface BoardGroup {
  column: string;
  level: ScopeLevel;
  /** Members added to the group's sets. */
  entries: number;
}

/** Where a build writes: its fresh version, and the version being served that it replaces group by group, if any. */
export interface BuildTarget {
  fresh: string;
  served: string | null;
}

/**
 * Writes every board and scope hash of `table` (module comment). `afterGroup` runs once each group is written (and,
 * over a served version, switched), before the next group starts.
 */
export async function writeRankTable(
  redis: Redis,
  keys: RankKeys,
  table: RankTable,
  target: BuildTarget,
  afterGroup: (group: BoardGroup) => Promise<void> = async () => undefined,
): Promise<void> {
  // Per cell, its scope key on each level (undefined where the cell has no such level).
  const cellScopes = table.cells.map((cell) => {
    const scopes = scopeKeysOf(cell);
    return SCOPE_LEVELS.map((level) => scopes[level]);
  });
  for (const [c, column] of RANKED_COLUMNS.entries()) {
    const order = table.rankOrder(c);
    for (const [l, level] of SCOPE_LEVELS.entries()) {
      const written = new Map<string, number>();
      let pending = new Map<string, (string | number)[]>();
      let buffered = 0;
      // Redis inserts a batch while this thread renders the next. Pipelines of one connection run in order.
      const batches = new OneBatchInFlight();
      const flush = async () => {
        const pipeline = redis.pipeline();
        for (const [scope, args] of pending) pipeline.zadd(keys.board(target.fresh, column, scope), ...args);
        pending = new Map();
        buffered = 0;
        await batches.send(() => execOrThrow(pipeline));
      };
      for (const slot of order) {
        const scope = cellScopes[table.cellOf[slot]][l];
        if (scope === undefined) continue;
        let args = pending.get(scope);
        if (!args) pending.set(scope, (args = []));
        args.push(table.scores[c][slot], table.member(slot));
        written.set(scope, (written.get(scope) ?? 0) + 1);
        if (++buffered >= FLUSH_PAIRS) await flush();
      }
      if (buffered) await flush();
      await batches.drain();
      if (target.served) await switchGroup(redis, keys, target.served, target.fresh, column, level, written);
      await afterGroup({ column, level, entries: [...written.values()].reduce((sum, n) => sum + n, 0) });
    }
  }
  await writeScopeHashes(redis, keys, table, target);
}

/** Renames a group's fresh sets over the served version's, and drops the served sets of scopes the group lacks. */
async function switchGroup(
  redis: Redis,
  keys: RankKeys,
  served: string,
  fresh: string,
  column: string,
  level: ScopeLevel,
  written: Map<string, number>,
): Promise<void> {
  // The served scopes, as of now: an update placed meanwhile may have added one. (RankEngine places the accounts
  // refreshed during the build again once it is over, so what the group read before their update is corrected.)
  const servedScopes = (await redis.hkeys(keys.population(served))).filter((scope) => levelOfScope(scope) === level);
  const multi = redis.multi();
  // UNLINK rather than letting RENAME delete the old set: freed in Redis's background thread, not inside the MULTI.
  for (const scope of written.keys())
    multi.unlink(keys.board(served, column, scope)).rename(keys.board(fresh, column, scope), keys.board(served, column, scope));
  for (const scope of servedScopes) if (!written.has(scope)) multi.unlink(keys.board(served, column, scope));
  await execOrThrow(multi);
}

/** Populations, cells, placements and countries: into the fresh version, then (over a served one) renamed over it. */
async function writeScopeHashes(redis: Redis, keys: RankKeys, table: RankTable, target: BuildTarget): Promise<void> {
  const cellCounts = new Array<number>(table.cells.length).fill(0);
  for (let slot = 0; slot < table.size; slot++) cellCounts[table.cellOf[slot]]++;
  const population = new Map<string, number>();
  for (const [i, cell] of table.cells.entries())
    for (const scope of Object.values(scopeKeysOf(cell))) population.set(scope, (population.get(scope) ?? 0) + cellCounts[i]);
  const { fresh } = target;
  const pipeline = redis.pipeline();
  if (population.size) pipeline.hset(keys.population(fresh), ...[...population].flat());
  if (table.cells.length) pipeline.hset(keys.cells(fresh), ...table.cells.flatMap((cell, i) => [cell, cellCounts[i]]));
  if (table.countries.size) pipeline.hset(keys.countries(fresh), ...[...table.countries].flat());
  await execOrThrow(pipeline);
  // A batch at a time, the next rendered while Redis stores the last: a million placements queued at once would
  // hold ~100 MB of command buffers.
  const batches = new OneBatchInFlight();
  for (let from = 0; from < table.size; from += HASH_PAIRS) {
    const fields: string[] = [];
    for (let slot = from; slot < Math.min(table.size, from + HASH_PAIRS); slot++)
      fields.push(String(table.ids[slot]), table.cells[table.cellOf[slot]]);
    await batches.send(() => redis.hset(keys.placement(fresh), ...fields));
  }
  await batches.drain();
  if (!target.served) return;
  const multi = redis.multi();
  const hashes: [(version: string) => string, boolean][] = [
    [(v) => keys.population(v), population.size > 0],
    [(v) => keys.cells(v), table.cells.length > 0],
    [(v) => keys.placement(v), table.size > 0],
    [(v) => keys.countries(v), table.countries.size > 0],
  ];
  for (const [key, written] of hashes) {
    multi.unlink(key(target.served));
    if (written) multi.rename(key(fresh), key(target.served));
  }
  await execOrThrow(multi);
}
