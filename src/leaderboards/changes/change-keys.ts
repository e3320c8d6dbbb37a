import { AppConfig } from '../../config/app-config';
import { redisKey } from '../../common/redis/redis.module';
import { COLUMN_BOARDS, SNAPSHOT_COUNTERS } from '../../ranks/account-boards';
import { CHANGE_WINDOWS } from '../dto/changes.dto';

export type ChangeWindow = (typeof CHANGE_WINDOWS)[number];

export const WINDOW_DAYS: Record<ChangeWindow, number> = { '24h': 1, '7d': 7, '30d': 30, '90d': 90, '1y': 365 };

/**
 * The window kept live in Redis sets, placed again after every update (a page by score is read straight off them).
 * The longer ones hold a large part of the population at a million accounts (three sorted-set entries per mover and
 * column: 7d ~85 MB, each of 30d/90d/1y ~280 MB), so they are served from snapshots computed from PostgreSQL
 * instead (ChangeSnapshots), a minute old when read steadily.
 */
export const LIVE_WINDOWS = ['24h'] as const satisfies readonly ChangeWindow[];
export type LiveWindow = (typeof LIVE_WINDOWS)[number];

export const isLiveWindow = (window: ChangeWindow): window is LiveWindow => (LIVE_WINDOWS as readonly string[]).includes(window);

/** The longest live window: runs older than this never decide a placement. */
export const MAX_LIVE_DAYS = Math.max(...LIVE_WINDOWS.map((window) => WINDOW_DAYS[window]));

/**
 * The account columns whose moves are tracked, each with the counter an update records before and after itself.
 * Boards scored by the same column (playtime, valid_playtime) share one set of state.
 */
export const CHANGE_COLUMNS: { column: string; counter: string }[] = [
  ...new Map(
    Object.entries(SNAPSHOT_COUNTERS).map(([board, counter]) => {
      const column = COLUMN_BOARDS[board as keyof typeof COLUMN_BOARDS]!;
      return [column, { column, counter: counter! }];
    }),
  ).values(),
].sort((a, b) => a.column.localeCompare(b.column));

/**
 * The sorted sets of one (window, column); members are `memberOf(accountId)` like the rank engine's, so equal
 * scores read in reverse order put the lower account id first.
 * - `up` / `down`: visible movers whose score rose / fell, scored by the size of the change (the listing by score);
 * - `cur` / `old`: movers whose score changed, scored by their current / window-start score when positive (what
 *   an old rank needs to know about the movers, see change-ranks.ts).
 */
export const SET_KINDS = ['up', 'down', 'cur', 'old'] as const;
export type SetKind = (typeof SET_KINDS)[number];

/** Where the changes' state lives in Redis: everything of one build under a version, like the rank engine's. */
export class ChangeKeys {
  constructor(private readonly config: Pick<AppConfig, 'redisPrefix'>) {}

  private key(...parts: (string | number)[]): string {
    return redisKey(this.config, 'changes', ...parts);
  }

  get version(): string {
    return this.key('version');
  }

  get sequence(): string {
    return this.key('sequence');
  }

  get lock(): string {
    return this.key('lock');
  }

  get sweepLock(): string {
    return this.key('sweep-lock');
  }

  /** When the sweeper last caught up (PostgreSQL time, ms): window edges before it are applied. */
  swept(version: string): string {
    return this.key(`v${version}`, 'swept');
  }

  /** The time of the snapshot an account's placement was computed from; older placements are not applied. */
  stamp(version: string, accountId: number): string {
    return this.key(`v${version}`, 'stamp', accountId);
  }

  set(version: string, window: LiveWindow, column: string, kind: SetKind): string {
    return this.key(`v${version}`, 's', window, column, kind);
  }

  /** A materialised list of one (column, window), see ChangeSnapshots. */
  snapshot(version: string, column: string, window: ChangeWindow, name: string): string {
    return this.key(`v${version}`, 'snap', column, window, name);
  }

  snapshotLock(version: string, column: string, window: ChangeWindow): string {
    return this.key(`v${version}`, 'snap-lock', column, window);
  }

  /**
   * Every stored snapshot of a version by when it was computed, and its size (what the snapshots' byte budget evicts
   * by), and every snapshot by when it was last read (what the worker keeps fresh).
   */
  snapshotIndex(version: string): { computed: string; bytes: string; read: string } {
    return {
      computed: this.key(`v${version}`, 'snap-computed'),
      bytes: this.key(`v${version}`, 'snap-bytes'),
      read: this.key(`v${version}`, 'snap-read'),
    };
  }

  /** The keys a placement writes, in the order the placement script reads them. */
  placementKeys(version: string): string[] {
    return LIVE_WINDOWS.flatMap((window) =>
      CHANGE_COLUMNS.flatMap(({ column }) => SET_KINDS.map((kind) => this.set(version, window, column, kind))),
    );
  }

  /** Every key of every build (`v<digits>:…`; not `version` itself). */
  get everyVersion(): string {
    return this.key('v[0-9]*');
  }

  versionOf(key: string): string | null {
    const match = /:changes:v(\d+):/.exec(key);
    return match ? match[1] : null;
  }
}
