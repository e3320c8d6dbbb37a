import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { FeedEntry, accountsOf } from '../../change-feed/change-entry';
import { ChangeFeedFollower, Projection } from '../../change-feed/change-feed-follower';
import { JsonLogger } from '../../common/logging/json-logger';
import { queryWithoutJit } from '../../common/sql/query-without-jit';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { RoleRecord } from '../dto/profile-records.dto';
import { cardRoles } from '../cards/card-values';
import { CARD_TOKENS_TEXT, cardTextOfTokens } from './card-tokens';

/**
 * # Card replica
 *
 * Every stored account's card in the memory of each HTTP process, as the tokens of card-tokens.ts (~250 bytes of text
 * an account: 306 MB of heap at a million), so that a listing of cards as text (`account.findFriendPath`, the most viewed
 * accounts) costs no statement. The card statement was a third of a friend path's CPU at a million accounts, and its
 * random accounts are not the ones a cache of recent cards holds (docs/performance-history.md, "A card replica").
 *
 * Beside the cards, which accounts chose to be hidden (`account_settings.hidden`, a few of them): the listings that
 * answer from the replica (the friend path, the most viewed, exports) withhold those, and asking PostgreSQL cost them
 * a statement per answer (docs/performance-history.md, "Who is hidden, from the card replica").
 *
 * A projection of the change feed (src/change-feed): loaded in batches of LOAD_BATCH, then each entry that changes a
 * card (or whether an account is hidden) has those read again (one statement each per batch read); a read waits for
 * the changes nudged before it. While not live `texts` and `hiddenAmong` answer null and the caller asks PostgreSQL,
 * as for an account not held.
 */
const LOAD_BATCH = 20_000;

/** The entries that change an account's card. */
const CARD_KINDS = new Set(['update-run', 'donation', 'role', 'account-added', 'rows-changed']);
const changesCard = (entry: FeedEntry) =>
  CARD_KINDS.has(entry.kind) || (entry.kind === 'settings' && (entry.payload?.vanity === true || entry.payload?.location === true));

/** The entries that may change whether an account is hidden. */
const HIDDEN_KINDS = new Set(['account-added', 'rows-changed']);
const changesHidden = (entry: FeedEntry) => HIDDEN_KINDS.has(entry.kind) || (entry.kind === 'settings' && entry.payload?.hidden === true);

const HIDDEN_SQL = 'SELECT account_id FROM account_settings WHERE hidden';
const HIDDEN_OF_IDS_SQL = `${HIDDEN_SQL} AND account_id = ANY($1)`;

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
export class CardReplica implements OnApplicationBootstrap, Projection {
  readonly name = 'card-replica';
  private readonly logger = new JsonLogger('CardReplica');
  private tokens = new Map<number, string>();
  private roles = new Map<number, RoleRecord[]>();
  private hidden = new Set<number>();
  private live = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
    private readonly feed: ChangeFeedFollower,
  ) {}

  onApplicationBootstrap(): void {
    // Only a process serving HTTP lists cards; the CLI and the worker share this module but never read them here.
    if (this.adapterHost.httpAdapter && this.config.cardReplica) this.feed.attach(this);
  }

  /**
   * The cards of `ids` the replica holds, as JSON text (absent: not held), with every change nudged before this call
   * applied; null while it is not live (ask PostgreSQL).
   */
  async texts(ids: readonly number[]): Promise<Map<number, string> | null> {
    if (!this.live) return null;
    await this.feed.settled();
    if (!this.live) return null;
    const texts = new Map<number, string>();
    for (const id of ids) {
      const tokens = this.tokens.get(id);
      if (tokens !== undefined) texts.set(id, cardTextOfTokens(tokens, this.roles.get(id) ?? null));
    }
    return texts;
  }

  /** Which of `ids` chose to be hidden, with every change nudged before this call applied; null while not live. */
  async hiddenAmong(ids: readonly number[]): Promise<Set<number> | null> {
    if (!this.live) return null;
    await this.feed.settled();
    if (!this.live) return null;
    return new Set(ids.filter((id) => this.hidden.has(id)));
  }

  /**
   * The tokens held for an account now (card-tokens.ts), waiting for nothing; null while not live or not held. For a
   * reader that checks their version against the row it reads itself (the profile).
   */
  heldTokens(id: number): string | null {
    return this.live ? (this.tokens.get(id) ?? null) : null;
  }

  /** Whether reads are answered from memory (tests and the benches wait for it). */
  get serving(): boolean {
    return this.live;
  }

  /** How many cards are held. */
  get size(): number {
    return this.tokens.size;
  }

  setLive(live: boolean): void {
    this.live = live;
    // Nothing reads them until a load replaces them.
    if (!live) [this.tokens, this.roles, this.hidden] = [new Map(), new Map(), new Set()];
  }

  async load(): Promise<void> {
    const started = Date.now();
    const tokens = new Map<number, string>();
    const roles = new Map<number, RoleRecord[]>();
    for (let after = -1; ;) {
      const [{ last }]: { last: number | null }[] = await this.dataSource.query(BATCH_END_SQL, [after]);
      if (last === null) break;
      for (const row of await queryWithoutJit<CardRow>(this.dataSource, CARDS_IN_RANGE_SQL, [after, last])) hold(row, tokens, roles);
      after = last;
    }
    const hidden = await this.hiddenOf(HIDDEN_SQL);
    [this.tokens, this.roles, this.hidden] = [tokens, roles, hidden];
    this.logger.log({ msg: 'card replica loaded', cards: tokens.size, hidden: hidden.size, ms: Date.now() - started });
  }

  /** Reads the cards and hidden flags the entries changed again (a statement for each, for all of them). */
  async apply(entries: readonly FeedEntry[]): Promise<void> {
    const [ids, hiddenIds] = [accountsOf(entries, changesCard), accountsOf(entries, changesHidden)];
    const [rows, hidden] = await Promise.all([
      ids.length ? (this.dataSource.query(CARDS_OF_IDS_SQL, [ids]) as Promise<CardRow[]>) : [],
      hiddenIds.length ? this.hiddenOf(HIDDEN_OF_IDS_SQL, [hiddenIds]) : new Set<number>(),
    ]);
    for (const id of ids) {
      this.tokens.delete(id);
      this.roles.delete(id);
    }
    for (const row of rows) hold(row, this.tokens, this.roles);
    for (const id of hiddenIds)
      if (hidden.has(id)) this.hidden.add(id);
      else this.hidden.delete(id);
  }

  private async hiddenOf(sql: string, params: unknown[] = []): Promise<Set<number>> {
    const rows: { account_id: number }[] = await this.dataSource.query(sql, params);
    return new Set(rows.map((row) => row.account_id));
  }
}

function hold(row: CardRow, tokens: Map<number, string>, roles: Map<number, RoleRecord[]>): void {
  tokens.set(row.id, row.tokens);
  if (row.roles) roles.set(row.id, row.roles);
}
