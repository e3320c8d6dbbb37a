import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { JsonLogger } from '../../common/logging/json-logger';
import { REDIS } from '../../common/redis/redis.module';
import { WatchedSubscription } from '../../common/redis/watched-subscription';
import { queryWithoutJit } from '../../common/sql/query-without-jit';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { completedRunsChannel, completedRunsSince, parseCompletedRun } from '../completed-runs';
import { RoleRecord } from '../dto/profile-records.dto';
import { cardRoles } from '../cards/card-values';
import { cardsChangedChannel, parseCardsChanged } from './card-changes';
import { CARD_TOKENS_TEXT, cardTextOfTokens } from './card-tokens';

/**
 * # Card replica
 *
 * Every stored account's card in the memory of each HTTP process, as the tokens of card-tokens.ts (~250 bytes of text
 * an account: 306 MB of heap at a million), so that a listing of cards as text (`account.findFriendPath`, the most viewed
 * accounts) costs no statement. The card statement was a third of a friend path's CPU at a million accounts, and its
 * random accounts are not the ones a cache of recent cards holds (docs/performance-history.md, "A card replica").
 *
 * Kept in step from committed rows, as the friend graph is (FriendGraphCache):
 * - Loaded in batches of LOAD_BATCH once its subscription to the completed runs (completed-runs.ts) and to the
 *   changed cards (card-changes.ts) is made, so every change committed after a batch was read is heard.
 * - A change heard names accounts whose cards are read again (one statement for all heard together); a read waits
 *   for the changes heard before it. A sweep every 2 s reads again the accounts of the runs completed in the last
 *   minute whose message was not heard.
 * - While the subscription is down, loading, or after a failed read, the replica is not in step: `texts` answers null
 *   and the caller asks PostgreSQL. A drop of the subscription reloads every card once it is made again.
 * An account the replica does not hold (added since and not yet announced, or never stored) is asked of PostgreSQL.
 * Rows written behind the service's back (a seed, SQL by hand) show after the process restarts, or once announced
 * (`CardChanges.announce`).
 */
const LOAD_BATCH = 20_000;
/** A failed load or change (PostgreSQL away) is tried again this much later; PostgreSQL answers meanwhile. */
const RETRY_LOAD_MS = 10_000;
/** How often and how far back the completed runs are swept for one whose message was lost (as the friend graph does). */
const SWEEP_EVERY_MS = 2_000;
const SWEEP_LOOKBACK_MS = 60_000;

const CARD_ROWS = (accounts: (alias: string) => string) =>
  `SELECT a.account_id AS id, ${CARD_TOKENS_TEXT} AS tokens, cr.roles
   FROM accounts a ${cardRoles(accounts('r'))} WHERE ${accounts('a')}`;
const CARDS_IN_RANGE_SQL = CARD_ROWS((t) => `${t}.account_id > $1 AND ${t}.account_id <= $2`);
const CARDS_OF_IDS_SQL = CARD_ROWS((t) => `${t}.account_id = ANY($1)`);
const BATCH_END_SQL = `SELECT max(account_id) AS last
  FROM (SELECT account_id FROM accounts WHERE account_id > $1 ORDER BY account_id LIMIT ${LOAD_BATCH}) batch`;

interface CardRow {
  id: number;
  tokens: string;
  roles: RoleRecord[] | null;
}

@Injectable()
export class CardReplica implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new JsonLogger('CardReplica');
  private tokens = new Map<number, string>();
  private roles = new Map<number, RoleRecord[]>();
  private inStep = false;
  private subscribed = false;
  /** Bumped whenever the subscription drops: a load or change begun before cannot vouch for what was published. */
  private connection = 0;
  private loading = false;
  /** Accounts heard of and not read again yet; read together, one `applying` at a time. */
  private pending = new Set<number>();
  private applying: Promise<void> | null = null;
  private subscription: WatchedSubscription | null = null;
  private retry: NodeJS.Timeout | null = null;
  /** The runs heard or swept lately (run id → finished, ms), so a sweep reads only the accounts of the others. */
  private readonly runsSeen = new Map<string, number>();
  private sweepTimer: NodeJS.Timeout | null = null;
  private sweeping = false;
  private stopped = false;
  private readonly completedRuns: string;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    this.completedRuns = completedRunsChannel(config);
  }

  onApplicationBootstrap(): void {
    // Only a process serving HTTP lists cards; the CLI and the worker share this module but never read them here.
    if (!this.adapterHost.httpAdapter || !this.config.cardReplica) return;
    // Named after the first (WatchedSubscription): the changed cards, the friend graph's is the completed runs'.
    const channels = [cardsChangedChannel(this.config), this.completedRuns];
    this.subscription = new WatchedSubscription(this.redis, channels, 'subscriber card replica', {
      message: (raw, channel) => {
        const run = channel === this.completedRuns ? parseCompletedRun(raw) : null;
        if (run) this.runsSeen.set(run.runId, run.finishedAt);
        this.hear(run ? [run.accountId] : (parseCardsChanged(raw) ?? []));
      },
      subscribed: () => {
        this.subscribed = true;
        void this.load();
      },
      closed: () => {
        this.subscribed = false;
        this.outOfStep();
      },
      failed: (error) => this.logger.error({ msg: 'could not subscribe to changed cards', error: String(error) }),
    });
    this.sweepTimer = setInterval(() => this.sweep(), SWEEP_EVERY_MS);
    this.sweepTimer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.subscription?.close();
    await this.applying;
  }

  /**
   * The cards of `ids` the replica holds, as JSON text (absent: not held), with every change heard before this call
   * applied; null while it is not in step (ask PostgreSQL).
   */
  async texts(ids: readonly number[]): Promise<Map<number, string> | null> {
    if (!this.inStep) return null;
    if (this.pending.size || this.applying) await this.apply();
    if (!this.inStep) return null;
    const texts = new Map<number, string>();
    for (const id of ids) {
      const tokens = this.tokens.get(id);
      if (tokens !== undefined) texts.set(id, cardTextOfTokens(tokens, this.roles.get(id) ?? null));
    }
    return texts;
  }

  /**
   * The tokens held for an account as they are now (card-tokens.ts), without waiting for the changes heard and not read
   * again yet; null while not in step or not held. For a reader that checks their version against the row it reads
   * itself (the profile), which a change not applied yet can only make it ignore them.
   */
  heldTokens(id: number): string | null {
    return this.inStep ? (this.tokens.get(id) ?? null) : null;
  }

  /** Whether reads are answered from memory (tests and the benches wait for it). */
  get serving(): boolean {
    return this.inStep;
  }

  /** How many cards are held. */
  get size(): number {
    return this.tokens.size;
  }

  private hear(ids: number[]): void {
    // Waiting to reload after a failure: the reload reads every card.
    if (this.retry) return;
    for (const id of ids) this.pending.add(id);
    // During a load the changes wait for it: it may have read their accounts before they changed.
    if (ids.length && !this.loading) void this.apply();
  }

  /** Reads again the accounts of the runs completed lately whose message was not heard (a lost publish). */
  private sweep(): void {
    if (!this.inStep || this.sweeping) return;
    this.sweeping = true;
    completedRunsSince(this.dataSource, new Date(Date.now() - SWEEP_LOOKBACK_MS))
      .then((runs) => {
        const missed = runs.filter((run) => !this.runsSeen.has(run.run_id));
        for (const run of missed) this.runsSeen.set(run.run_id, run.finished_at.getTime());
        this.hear(missed.map((run) => run.account_id));
        const forgotten = Date.now() - 2 * SWEEP_LOOKBACK_MS;
        for (const [runId, finished] of this.runsSeen) if (finished < forgotten) this.runsSeen.delete(runId);
      })
      .catch((error: Error) => this.logger.debug({ msg: 'card replica sweep failed', error: error.message }))
      .finally(() => (this.sweeping = false));
  }

  private outOfStep(): void {
    this.connection++;
    this.inStep = false;
    // Nothing reads them until a reload replaces them.
    this.tokens = new Map();
    this.roles = new Map();
  }

  private async load(): Promise<void> {
    const connection = this.connection;
    const started = Date.now();
    this.loading = true;
    try {
      const tokens = new Map<number, string>();
      const roles = new Map<number, RoleRecord[]>();
      for (let after = -1; ;) {
        if (connection !== this.connection || this.stopped) return;
        const [{ last }]: { last: number | null }[] = await this.dataSource.query(BATCH_END_SQL, [after]);
        if (last === null) break;
        for (const row of await queryWithoutJit<CardRow>(this.dataSource, CARDS_IN_RANGE_SQL, [after, last])) this.hold(row, tokens, roles);
        after = last;
      }
      if (connection !== this.connection || this.stopped) return;
      [this.tokens, this.roles] = [tokens, roles];
      this.loading = false;
      // The changes heard meanwhile, then serve (unless the subscription dropped or a change failed meanwhile).
      await this.apply();
      if (connection === this.connection && !this.retry) this.inStep = true;
      this.logger.log({ msg: 'card replica loaded', cards: tokens.size, ms: Date.now() - started });
    } catch (error) {
      if (connection === this.connection && !this.stopped) this.failed('card replica load failed', error);
    } finally {
      if (connection === this.connection) this.loading = false;
    }
  }

  /** Reads the cards of the accounts heard of again; resolves once every account heard before the call is read. */
  private apply(): Promise<void> {
    this.applying ??= this.applyPending().finally(() => (this.applying = null));
    return this.applying;
  }

  private async applyPending(): Promise<void> {
    while (this.pending.size && !this.loading) {
      const connection = this.connection;
      const ids = [...this.pending];
      this.pending.clear();
      let rows: CardRow[];
      try {
        rows = await this.dataSource.query(CARDS_OF_IDS_SQL, [ids]);
      } catch (error) {
        if (connection === this.connection && !this.stopped) this.failed('card replica change failed', error);
        return;
      }
      if (connection !== this.connection) return;
      for (const id of ids) {
        this.tokens.delete(id);
        this.roles.delete(id);
      }
      for (const row of rows) this.hold(row, this.tokens, this.roles);
    }
  }

  private hold(row: CardRow, tokens: Map<number, string>, roles: Map<number, RoleRecord[]>): void {
    tokens.set(row.id, row.tokens);
    if (row.roles) roles.set(row.id, row.roles);
  }

  /** Out of step until a reload RETRY_LOAD_MS later: what was heard may not be applied. */
  private failed(msg: string, error: unknown): void {
    this.logger.warn({ msg: `${msg}; PostgreSQL answers until it reloads`, error: String(error) });
    this.outOfStep();
    this.pending.clear();
    this.loading = false;
    this.retry ??= setTimeout(() => {
      this.retry = null;
      // Not subscribed: the subscription, once made again, loads.
      if (this.subscribed) void this.load();
    }, RETRY_LOAD_MS);
    this.retry.unref();
  }
}
