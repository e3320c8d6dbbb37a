import { AppConfig } from '../config/app-config';
import { redisKey } from '../common/redis/redis.module';

/**
 * Where the engine's state lives in Redis. Everything served sits under a version, `…:ranks:v<N>:…`, named by
 * `…:ranks:version`. A build with none served fills a fresh version and then names it; a build over a served one
 * stages each group of boards under a fresh version number and renames it over the served keys (rank-build.ts).
 */
export class RankKeys {
  constructor(private readonly config: Pick<AppConfig, 'redisPrefix'>) {}

  /** The version readers use; absent until the first build (and after a flush). */
  get version(): string {
    return redisKey(this.config, 'ranks', 'version');
  }

  get sequence(): string {
    return redisKey(this.config, 'ranks', 'sequence');
  }

  get lock(): string {
    return redisKey(this.config, 'ranks', 'lock');
  }

  /** The build format (RANK_BUILD_FORMAT) the served version was built to. */
  get format(): string {
    return redisKey(this.config, 'ranks', 'format');
  }

  /** Every key of a version starts with this followed by the version and `:` (see profile-ranks.lua.ts). */
  get versionPrefix(): string {
    return redisKey(this.config, 'ranks', 'v');
  }

  /** Sorted set of one board (by its column) in one scope: member = encoded account id, score = the column. */
  board(version: string, column: string, scope: string): string {
    return redisKey(this.config, 'ranks', `v${version}`, 'b', column, scope);
  }

  /** Hash scope key → number of ranked accounts in it (including those scoring 0, who are not in the sets). */
  population(version: string): string {
    return redisKey(this.config, 'ranks', `v${version}`, 'population');
  }

  /** Hash account id → its cell, so an update knows which scopes to leave when the account moves. */
  placement(version: string): string {
    return redisKey(this.config, 'ranks', `v${version}`, 'placement');
  }

  /** Hash cell → number of ranked accounts in it: the known locations, which filters are matched against. */
  cells(version: string): string {
    return redisKey(this.config, 'ranks', `v${version}`, 'cells');
  }

  /** Hash lower-cased country name → country code, for answering which country a location filter named. */
  countries(version: string): string {
    return redisKey(this.config, 'ranks', `v${version}`, 'countries');
  }

  /** Where the per-app and per-badge boards of a version live (LazyBoards): every key of theirs starts with it. */
  lazy(version: string): string {
    return redisKey(this.config, 'ranks', `v${version}`, 'lz');
  }

  /** A short-lived union of several scopes of one board (a filter naming several locations). */
  union(version: string, column: string, scopes: string[]): string {
    return redisKey(this.config, 'ranks', `v${version}`, 'u', column, scopes.join('+'));
  }

  /** Every key of every version. */
  get everyVersion(): string {
    return redisKey(this.config, 'ranks', 'v[0-9]*');
  }

  /** The version a key of `everyVersion` belongs to. */
  versionOf(key: string): string {
    return key.slice(redisKey(this.config, 'ranks', 'v').length).split(':')[0];
  }

  /** Every key of a version. */
  pattern(version: string): string {
    return redisKey(this.config, 'ranks', `v${version}`, '*');
  }
}
