import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { ProblemException } from '../common/problem/problem.exception';
import { REDIS } from '../common/redis/redis.module';
import { RankEngine } from './rank-engine.service';
import { RankKeys } from './rank-keys';
import { GLOBAL_RANKS_LUA } from './global-ranks.lua';
import { PREVIEW_PLACE_LUA } from './preview-place.lua';
import { LocationFilter, accountOf, memberOf, scopeKeysForFilter, scopeKeysOf, scopeSql } from './rank-scopes';

/** A board narrowed to a scope, ready to read: one sorted set (a union for several locations) and its size. */
export interface BoardScope {
  version: string;
  column: string;
  /** The sorted set of the non-zero scores. */
  key: string;
  /** The scope keys the board covers (`g` for the global board). */
  scopes: string[];
  /** Ranked accounts in the scope, zero scores included. */
  population: number;
  /** Accounts in the sorted set (non-zero scores); the rest are unranked (rank 0), listed after them. */
  scored: number;
  /** SQL predicate over `accounts a` selecting the scope, with its parameters from `$<offset+1>` on. */
  sql: (offset: number) => { where: string; parameters: string[] };
}

export interface RankedEntry {
  accountId: number;
  score: number;
  rank: number;
}

/** How long a union of several locations' sets is reused: well inside the 60 s freshness promise. */
const UNION_TTL_SECONDS = 20;
const CELLS_TTL_MS = 10_000;

type GlobalRanksScript = (versionKey: string, ...args: string[]) => Promise<number[]>;
type PreviewPlaceScript = (versionKey: string, ...args: string[]) => Promise<(string | number)[]>;

/** Where a previewed score sits on a column's global board (see PREVIEW_PLACE_LUA). */
export interface PreviewPlace {
  board: BoardScope;
  /** The account's own rank; 0 when it is not on the board. */
  position: number;
  /** How many others rank before the previewed score. */
  ahead: number;
  /** The position of the window's first entry: max(1, ahead - 1). */
  from: number;
  /** The account's score as the board holds it (or as the caller gave it). */
  own: number;
  /** The board from position max(1, ahead - 1) to ahead + 2, the account itself included. */
  window: RankedEntry[];
}

/**
 * The rank engine's reader side: scopes, ranks, windows and board sizes, each a few O(log N) Redis calls.
 * Order on every board: score descending, then lower account id. Accounts scoring 0 are not kept in the sets
 * (most boards are mostly zeros); a zero value is unranked: rank 0, listed after every account scoring, by account id.
 */
@Injectable()
export class RankReader {
  private cells: { version: string; at: number; cells: string[] } | null = null;
  private readonly globalRanksScript: GlobalRanksScript;
  private readonly previewPlaceScript: PreviewPlaceScript;

  constructor(
    private readonly engine: RankEngine,
    @Inject(REDIS) private readonly redis: Redis,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    // defineCommand runs the script by EVALSHA, loading it once per connection.
    redis.defineCommand('badgeStatsGlobalRanks', { numberOfKeys: 1, lua: GLOBAL_RANKS_LUA });
    const globalRanks = (redis as unknown as Record<string, GlobalRanksScript>).badgeStatsGlobalRanks;
    this.globalRanksScript = globalRanks.bind(redis) as GlobalRanksScript;
    redis.defineCommand('badgeStatsPreviewPlace', { numberOfKeys: 1, lua: PREVIEW_PLACE_LUA });
    const previewPlace = (redis as unknown as Record<string, PreviewPlaceScript>).badgeStatsPreviewPlace;
    this.previewPlaceScript = previewPlace.bind(redis) as PreviewPlaceScript;
  }

  private get keys(): RankKeys {
    return this.engine.keys;
  }

  /** The version being served, or null while none exists (a flushed Redis): then a rebuild is started. */
  async currentVersion(): Promise<string | null> {
    const version = await this.redis.get(this.keys.version);
    if (!version) this.engine.startBuild();
    return version;
  }

  /** The key naming the version being served, for scripts that read it themselves (with `boardKeyAround`). */
  get versionKey(): string {
    return this.keys.version;
  }

  /** A column's global board key as the text before and after its version: a script inserts the version it read. */
  boardKeyAround(column: string): [string, string] {
    return aroundVersion((version) => this.keys.board(version, column, 'g'));
  }

  /** The version being served; while none exists, callers get 503 and a rebuild is started. */
  async version(): Promise<string> {
    const version = await this.currentVersion();
    if (version) return version;
    throw rebuilding();
  }

  /** A column board in the scope the request's locations select (all of them, or the global board). */
  async scope(column: string, locations: (LocationFilter | null)[] | undefined | null): Promise<BoardScope> {
    const version = await this.version();
    const scopes = await this.scopeKeysFor(version, locations);
    if (scopes.length <= 1) {
      const scope = scopes[0];
      const [[, population], [, scored]] = (await this.redis
        .pipeline()
        .hget(this.keys.population(version), scope ?? '-')
        .zcard(this.keys.board(version, column, scope ?? '-'))
        .exec()) as [unknown, string | null][];
      return this.boardScope(
        version,
        column,
        scope ? this.keys.board(version, column, scope) : '-',
        Number(population ?? 0),
        Number(scored),
        scopes,
      );
    }
    const key = this.keys.union(version, column, scopes);
    if (!(await this.redis.exists(key))) {
      await this.redis
        .multi()
        .zunionstore(key, scopes.length, ...scopes.map((scope) => this.keys.board(version, column, scope)), 'AGGREGATE', 'MAX')
        .expire(key, UNION_TTL_SECONDS)
        .exec();
    }
    const populations = await this.redis.hmget(this.keys.population(version), ...scopes);
    const population = populations.reduce((sum, n) => sum + Number(n ?? 0), 0);
    return this.boardScope(version, column, key, population, await this.redis.zcard(key), scopes);
  }

  /** The scope keys a request's locations select (`g` without any), nested ones dropped so they are disjoint. */
  async scopeKeysFor(version: string, locations: (LocationFilter | null)[] | undefined | null): Promise<string[]> {
    const filters = (locations ?? []).filter((l): l is LocationFilter => Boolean(l));
    return filters.length ? this.scopeKeys(version, filters) : ['g'];
  }

  private boardScope(version: string, column: string, key: string, population: number, scored: number, scopes: string[]): BoardScope {
    return { version, column, key, scopes, population, scored, sql: (offset) => scopeSql(scopes, offset) };
  }

  /** 1-based rank of an account with `score` on the board (its own rank when it is on the board); 0 for a zero value. */
  async rankOf(board: BoardScope, accountId: number, score: number): Promise<number> {
    if (score <= 0) return 0;
    const index = await this.redis.zrevrank(board.key, memberOf(accountId));
    return index === null ? (await this.redis.zcount(board.key, `(${score}`, '+inf')) + 1 : index + 1;
  }

  /**
   * `rankOf` on a column's global board for several accounts, in one script that reads the version too (see
   * GLOBAL_RANKS_LUA); 0 for a null entry. Without a version, 503 and a rebuild is started.
   */
  async globalRanks(column: string, entries: ({ accountId: number; score: number } | null)[], again = true): Promise<number[]> {
    const listed = entries.filter((entry): entry is { accountId: number; score: number } => entry !== null);
    if (!listed.length) return this.version().then(() => entries.map(() => 0));
    const args = listed.flatMap((entry) => [memberOf(entry.accountId), String(entry.score)]);
    const out = await this.globalRanksScript(this.keys.version, ...this.boardKeyAround(column), ...args);
    if (!out.length) {
      await this.version();
      // A version appeared since the script ran: read again (once).
      if (again) return this.globalRanks(column, entries, false);
      throw rebuilding();
    }
    let k = 0;
    return entries.map((entry) => (entry ? Number(out[k++]) : 0));
  }

  /** The account's entry when it is in the board's sorted set (per-app and per-badge boards hold every entry). */
  async entryOf(board: BoardScope, accountId: number): Promise<RankedEntry | null> {
    const [[, index], [, score]] = (await this.redis
      .pipeline()
      .zrevrank(board.key, memberOf(accountId))
      .zscore(board.key, memberOf(accountId))
      .exec()) as [unknown, number | null][];
    return index === null ? null : { accountId, rank: Number(index) + 1, score: Number(score) };
  }

  /** How many accounts on the board score at least `score` (> 0). */
  countAtLeast(board: BoardScope, score: number): Promise<number> {
    return this.redis.zcount(board.key, score, '+inf');
  }

  /** The accounts at positions `start`…`end` (1-based, inclusive), with their ranks. */
  async window(board: BoardScope, start: number, end: number): Promise<RankedEntry[]> {
    const entries: RankedEntry[] = [];
    if (start <= board.scored) {
      const flat = await this.redis.zrevrange(board.key, start - 1, Math.min(end, board.scored) - 1, 'WITHSCORES');
      for (let i = 0; i < flat.length; i += 2)
        entries.push({ accountId: accountOf(flat[i]), score: Number(flat[i + 1]), rank: start + i / 2 });
    }
    return this.withZeroTail(board, start, end, entries);
  }

  /** `entries` (the window's part in the sorted set) followed by its part among the accounts scoring 0. */
  private async withZeroTail(board: BoardScope, start: number, end: number, entries: RankedEntry[]): Promise<RankedEntry[]> {
    const zeroStart = Math.max(start, board.scored + 1);
    if (end >= zeroStart && zeroStart <= board.population) {
      const ids = await this.zeroTail(board, zeroStart - board.scored - 1, end - zeroStart + 1);
      // Unranked: a zero value holds no rank (the profile's, the preview's and the windows' rule alike).
      for (const accountId of ids) entries.push({ accountId, score: 0, rank: 0 });
    }
    return entries;
  }

  /**
   * Where `value` (or the account's own score) sits on a column's global board, with the board around it: one script
   * (preview-place.lua.ts), and PostgreSQL only for a window reaching the accounts scoring 0. `account.score` is the
   * account's score when the caller has read it; without it the board's is used, and null is returned when the
   * account is not in the board's set (the caller reads the account and asks again).
   */
  async previewPlace(
    column: string,
    account: { accountId: number; score?: number; onBoard: boolean } | null,
    value: number | null,
  ): Promise<PreviewPlace | null> {
    const known = account === null ? '0' : account.score === undefined ? '' : String(account.score);
    const out = await this.previewPlaceScript(
      this.keys.version,
      ...this.boardKeyAround(column),
      ...aroundVersion((version) => this.keys.population(version)),
      account ? memberOf(account.accountId) : '',
      known,
      account?.onBoard ? '1' : '0',
      value === null ? '' : String(value),
    );
    if (!out.length) {
      this.engine.startBuild();
      throw rebuilding();
    }
    const version = String(out[0]);
    const [population, scored, position] = out.slice(1, 4).map(Number);
    if (position < 0) return null;
    const board = this.boardScope(version, column, this.keys.board(version, column, 'g'), population, scored, ['g']);
    const ahead = Number(out[4]);
    const from = Math.max(1, ahead - 1);
    const entries: RankedEntry[] = [];
    for (let i = 6; i < out.length; i += 2)
      entries.push({ accountId: accountOf(String(out[i])), score: Number(out[i + 1]), rank: from + (i - 6) / 2 });
    const window = await this.withZeroTail(board, from, ahead + 2, entries);
    return { board, position, ahead, from, own: Number(out[5]), window };
  }

  /** Accounts scoring 0 in the scope, by account id: the tail of the board, from PostgreSQL. */
  async zeroTail(board: BoardScope, offset: number, limit: number, except?: number): Promise<number[]> {
    const scope = board.sql(3);
    const rows: { account_id: number }[] = await this.dataSource.query(
      `SELECT a.account_id FROM accounts a
        WHERE a.updated_at IS NOT NULL AND a.${board.column} <= 0 AND a.account_id <> $3 AND ${scope.where}
        ORDER BY a.account_id OFFSET $1 LIMIT $2`,
      [offset, limit, except ?? -1, ...scope.parameters],
    );
    return rows.map((row) => row.account_id);
  }

  /**
   * The next `limit` accounts scoring 0 after `afterAccountId`, by account id: the zero tail read by keyset (a range of
   * the primary key per call), for readers walking the whole tail (exports) where `zeroTail`'s OFFSET would grow.
   */
  async zeroTailAfter(board: BoardScope, afterAccountId: number, limit: number): Promise<number[]> {
    const scope = board.sql(2);
    const rows: { account_id: number }[] = await this.dataSource.query(
      `SELECT a.account_id FROM accounts a
        WHERE a.account_id > $1 AND a.updated_at IS NOT NULL AND a.${board.column} <= 0 AND ${scope.where}
        ORDER BY a.account_id LIMIT $2`,
      [afterAccountId, limit, ...scope.parameters],
    );
    return rows.map((row) => row.account_id);
  }

  /** The code of a country known by its name (any case), or null. */
  async countryCode(name: string): Promise<string | null> {
    const version = await this.version();
    return this.redis.hget(this.keys.countries(version), name.trim().toLowerCase());
  }

  /** Every country on the boards: lower-cased name → ISO code (the countries hash the location filters read). */
  async countries(): Promise<Record<string, string>> {
    const version = await this.version();
    return this.redis.hgetall(this.keys.countries(version));
  }

  /** The account's location cell, or null when it is not on the boards (never refreshed). */
  cellOf(version: string, accountId: number): Promise<string | null> {
    return this.redis.hget(this.keys.placement(version), String(accountId));
  }

  /** Known cells, cached briefly per process: they change only when an account shows up somewhere new. */
  private async scopeKeys(version: string, filters: LocationFilter[]): Promise<string[]> {
    if (!this.cells || this.cells.version !== version || Date.now() - this.cells.at > CELLS_TTL_MS) {
      const counts = await this.redis.hgetall(this.keys.cells(version));
      this.cells = { version, at: Date.now(), cells: Object.keys(counts).filter((cell) => Number(counts[cell]) > 0) };
    }
    const cells = this.cells.cells;
    const selected = new Set(filters.flatMap((filter) => scopeKeysForFilter(filter, cells)));
    // A scope inside another selected one (a state within a selected country) adds nobody: drop it, so the
    // remaining scopes are disjoint and their populations add up.
    const covered = (scope: string) => new Set(cells.filter((cell) => Object.values(scopeKeysOf(cell)).includes(scope)));
    const coverage = new Map([...selected].map((scope) => [scope, covered(scope)]));
    return [...selected]
      .filter((scope) => {
        const mine = coverage.get(scope)!;
        return ![...selected].some((other) => {
          if (other === scope) return false;
          const theirs = coverage.get(other)!;
          return theirs.size > mine.size && [...mine].every((cell) => theirs.has(cell));
        });
      })
      .sort();
  }
}

/** A versioned key as the text before and after its version (no key name holds a NUL). */
export function aroundVersion(key: (version: string) => string): [string, string] {
  const [before, after] = key('\0').split('\0');
  return [before, after];
}

const rebuilding = () =>
  new ProblemException(503, 'The leaderboards are being rebuilt; try again in a minute.', { headers: { 'Retry-After': '60' } });
