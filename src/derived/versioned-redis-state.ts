import { unlinkMatching } from '../common/redis/redis-batch';
import { releaseLock, renewLock, tryLock } from '../common/redis/redis-lock';
import Redis from 'ioredis';
import { JsonLogger } from '../common/logging/json-logger';

/** The keys a versioned state needs: which version is served, the next number, the build lock, every build's keys. */
export interface VersionKeys {
  readonly version: string;
  readonly sequence: string;
  readonly lock: string;
  /** A SCAN pattern matching every key of every build (not `version` itself). */
  readonly everyVersion: string;
  /** The build a key of `everyVersion` belongs to. */
  versionOf(key: string): string | null;
  /** Where the format of the served build is noted (see VersionedRedisState's `format`); absent: not tracked. */
  readonly format?: string;
}

/**
 * The build lock's lease, renewed by its holder every third of it: a builder that dies (killed, out of memory) holds
 * up the next one for at most this long, not for as long as the longest build could take.
 */
const LOCK_MS = 60_000;

/** Off while a context is created by a process that rebuilds every keeper right after (see withoutBootBuilds). */
let buildOnDemand = true;

/**
 * Creates a context whose Redis keepers build only when asked to (`rebuild`, `ensureBuilt`): neither at boot on an
 * empty prefix nor when a read or a periodic task finds no version. For a process that rebuilds the keepers it wants
 * itself (the seed's two rebuild processes, src/seed/rebuild-processes.ts): there a boot build would build everything
 * in the first process and make the second wait on its locks, and the worker's change-snapshot refresher, finding the
 * board changes not built yet, built them in the process that had left them to the other, which then built them again.
 */
export async function withoutBootBuilds<T>(create: () => Promise<T>): Promise<T> {
  buildOnDemand = false;
  try {
    return await create();
  } finally {
    buildOnDemand = true;
  }
}

/**
 * Why a build runs: `missing`, no version is served (first start, a flushed Redis) and reads wait for it (503);
 * `rebuild`, an operator or the seed asked for one while the current version, if any, keeps serving.
 */
export type BuildKind = 'missing' | 'rebuild';

/**
 * The lifecycle shared by the derived states kept in Redis under versions (the rank engine, the board changes):
 * everything of one build sits under `v<N>`, a build fills a fresh version while the current one keeps serving,
 * then switches `version` to it and drops every other. One build at a time across processes (a Redis lock that
 * expires if its holder dies); within a process, callers join the build under way. Each keeper supplies `build`.
 */
export class VersionedRedisState {
  private readonly logger = new JsonLogger('VersionedRedisState');
  private building: Promise<void> | null = null;
  private booting: Promise<void> | null = null;
  /** Whether boot and reads that find no version start a build (see withoutBootBuilds; keepers are made in create()). */
  private readonly buildsOnDemand = buildOnDemand;

  private readonly build: (kind: BuildKind) => Promise<void>;

  /**
   * `format` numbers what a build derives from the rows: a release that changes it (a keeper that reads a new column,
   * or rows a data migration filled, such as the accounts' regions) raises it, and the first process of that release
   * to boot over a version built to an older format rebuilds it in place in the background, while that version keeps
   * serving; nobody has to run a command. Every build notes the format it was made to (`keys.format`).
   */
  constructor(
    private readonly redis: Redis,
    private readonly keys: VersionKeys,
    build: (kind: BuildKind) => Promise<void>,
    private readonly format?: number,
  ) {
    this.build = async (kind) => {
      await build(kind);
      if (this.format !== undefined && this.keys.format) await this.redis.set(this.keys.format, String(this.format));
    };
  }

  /** The version being served, or null before the first build (and after a flush). */
  current(): Promise<string | null> {
    return this.redis.get(this.keys.version);
  }

  /**
   * Starts the boot-time check (and build, on an empty Redis) without waiting for it. Keepers call it from
   * `onModuleInit` and wait in `onApplicationBootstrap` (bootstrap()): Nest runs each module's hooks before the next
   * module's, so builds started and awaited in one hook would run one after another (at a million accounts the rank
   * engine's and the board changes' builds take about a minute each; started together they overlap).
   */
  startBootstrap(): void {
    if (this.booting) return;
    if (!this.buildsOnDemand) {
      this.booting = Promise.resolve();
      return;
    }
    this.booting = (async () => {
      if (!(await this.current())) await this.ensureBuilt();
      else if (await this.outdated()) this.startUpgrade();
    })();
    // Reported by bootstrap(); this only keeps a failure from being an unhandled rejection meanwhile.
    this.booting.catch(() => undefined);
  }

  /** The first process to start on an empty Redis builds before serving; the others find it built. */
  bootstrap(): Promise<void> {
    this.startBootstrap();
    return this.booting!;
  }

  /** Starts (or joins) a build when no version exists; resolves when that build is done (or another process has it). */
  ensureBuilt(): Promise<void> {
    this.building ??= this.exclusively(false, async () => {
      if (!(await this.current())) await this.build('missing');
    }).finally(() => (this.building = null));
    return this.building;
  }

  /**
   * `ensureBuilt` for a read that found no version (a flushed Redis) and answers without waiting: the build runs in
   * the background and a failure (PostgreSQL away too) is logged, not left an unhandled rejection, which would stop
   * the process. The next read that finds no version asks again.
   */
  startBuild(): void {
    if (!this.buildsOnDemand) return;
    this.ensureBuilt().catch((error: unknown) =>
      this.logger.error({ msg: 'build of a versioned state failed', version: this.keys.version, error: String(error) }),
    );
  }

  /** Whether the served version was built to an older format than this release's (or to an unnoted one). */
  private async outdated(): Promise<boolean> {
    if (this.format === undefined || !this.keys.format) return false;
    const noted = await this.redis.get(this.keys.format);
    return noted === null || Number(noted) < this.format;
  }

  /**
   * Rebuilds an outdated version in place, in the background: boot is not held up (the served version answers
   * meanwhile). One process does it: the others find the lock taken and leave it, or find the format current.
   */
  private startUpgrade(): void {
    this.upgrading = this.exclusively(false, async () => {
      if (!(await this.current()) || !(await this.outdated())) return;
      this.logger.log({ msg: 'rebuilding a versioned state built to an older format', version: this.keys.version, format: this.format });
      await this.build('rebuild');
    })
      .catch((error: unknown) =>
        this.logger.error({ msg: 'format upgrade of a versioned state failed', version: this.keys.version, error: String(error) }),
      )
      .finally(() => (this.upgrading = null));
  }

  /** The format upgrade under way in this process, if any (tests wait for it). */
  upgrading: Promise<void> | null = null;

  /** Rebuilds even when a version exists (operators, the seed), after any build under way. */
  rebuild(): Promise<void> {
    return this.exclusively(true, () => this.build('rebuild'));
  }

  /** A fresh version number for a build to fill. */
  async nextVersion(): Promise<string> {
    return String(await this.redis.incr(this.keys.sequence));
  }

  /** Readers switch to `version` from now on. */
  async serve(version: string): Promise<void> {
    await this.redis.set(this.keys.version, version);
  }

  /** Deletes every build but `keep` (the superseded one, and any orphaned by a partial flush). */
  async dropAllBut(keep: string): Promise<void> {
    await unlinkMatching(this.redis, this.keys.everyVersion, (key) => this.keys.versionOf(key) === keep);
  }

  /** Runs `work` holding the build lock; without `wait`, skips if another process holds it. */
  private async exclusively(wait: boolean, work: () => Promise<void>): Promise<void> {
    let token: string | null;
    while (!(token = await tryLock(this.redis, this.keys.lock, LOCK_MS))) {
      if (!wait) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const held = token;
    const renew = setInterval(() => void renewLock(this.redis, this.keys.lock, held, LOCK_MS).catch(() => undefined), LOCK_MS / 3);
    try {
      await work();
    } finally {
      clearInterval(renew);
      await releaseLock(this.redis, this.keys.lock, held);
    }
  }
}
