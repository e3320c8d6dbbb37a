import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { LeaderboardAccount } from '../dto/leaderboard-account.dto';
import { AccountRoleEntity } from '../entities/account-role.entity';
import { AccountEntity } from '../entities/account.entity';
import { RawJson } from '../../common/wire/raw-json';
import { idsForGenericPlan } from '../../common/sql/generic-plan-ids';
import { CARD_VALUES, CardValues, cardOf, cardRoles } from './card-values';
import { CardTextCache, SENT_CARD, SentCard } from './card-text-cache';
import { CardReplica } from '../card-replica/card-replica.service';
import { HeldRole, maxPageSizeOf } from '../donor-tiers';
import { GRANTED_VALUE_SQL } from '../resources/account-resources';

/** The roles of the accounts `$1` names, joined once per statement (cardRoles). */
const ROLES_OF_IDS = cardRoles('r.account_id = ANY($1)');
const CARDS_SQL = `SELECT json_agg(${CARD_VALUES}) AS cards FROM accounts a ${ROLES_OF_IDS} WHERE a.account_id = ANY($1)`;
/** The cards as SentCard: texts written only where this process holds none for the row's version (CardTextCache). */
const RAW_CARDS_SQL = `SELECT json_agg(${SENT_CARD}) AS cards FROM accounts a ${ROLES_OF_IDS} WHERE a.account_id = ANY($1)`;
/** RAW_CARDS_SQL and each account's latest completed update (ms; the writer stamps `updated_at` with its run's end). */
const RAW_CARDS_UPDATED_SQL = `SELECT json_agg(${SENT_CARD}) AS cards,
  json_object_agg(a.account_id, floor(extract(epoch FROM a.updated_at) * 1000)) AS updated
  FROM accounts a ${ROLES_OF_IDS} WHERE a.account_id = ANY($1)`;
/**
 * RAW_CARDS_UPDATED_SQL and which of the accounts chose to be hidden, in the same statement: a second statement per
 * page cost the changes from snapshots 12 % more API CPU per answer at a million accounts (side by side, issue 58).
 */
const RAW_CARDS_UPDATED_HIDDEN_SQL = `SELECT json_agg(${SENT_CARD}) AS cards,
    json_object_agg(a.account_id, floor(extract(epoch FROM a.updated_at) * 1000)) AS updated,
    COALESCE(array_agg(a.account_id) FILTER (WHERE h.account_id IS NOT NULL), '{}') AS hidden
  FROM accounts a ${ROLES_OF_IDS}
  LEFT JOIN (SELECT s.account_id FROM account_settings s WHERE s.account_id = ANY($1) AND s.hidden) h ON h.account_id = a.account_id
  WHERE a.account_id = ANY($1)`;
/** CARDS_SQL and which of the accounts chose to be hidden, in the same statement. */
const CARDS_WITH_HIDDEN_SQL = `SELECT json_agg(${CARD_VALUES}) AS cards,
    COALESCE(array_agg(a.account_id) FILTER (WHERE h.account_id IS NOT NULL), '{}') AS hidden
  FROM accounts a ${ROLES_OF_IDS}
  LEFT JOIN (SELECT s.account_id FROM account_settings s WHERE s.account_id = ANY($1) AND s.hidden) h ON h.account_id = a.account_id
  WHERE a.account_id = ANY($1)`;

/** Loads accounts as `LeaderboardAccount` rows, one query for any number of them. */
@Injectable()
export class LeaderboardAccountsService {
  private readonly texts = new CardTextCache();

  constructor(
    @InjectRepository(AccountEntity) private readonly accounts: Repository<AccountEntity>,
    @InjectRepository(AccountRoleEntity) private readonly roles: Repository<AccountRoleEntity>,
    private readonly replica: CardReplica,
  ) {}

  /**
   * One statement for any number of accounts, one JSON value for all of them (CardValues: the card's columns only,
   * roles included). Every listing of up to a thousand accounts goes through here: entity hydration, a second query
   * for the roles, the columns no card shows and the driver's parsing of each column of each row cost more Node time
   * than the statement itself.
   */
  async byIds(accountIds: number[]): Promise<Map<number, LeaderboardAccount>> {
    const cards = new Map<number, LeaderboardAccount>();
    if (!accountIds.length) return cards;
    const [{ cards: values }]: { cards: CardValues[] | null }[] = await this.accounts.query(CARDS_SQL, [idsForGenericPlan(accountIds)]);
    for (const v of values ?? []) cards.set(v[0], cardOf(v));
    return cards;
  }

  /**
   * The same cards as JSON text written by PostgreSQL (card-values.ts), for the largest listings: put into the response
   * as they are (RawJson; the response must be marked with holdRawJson), never parsed into objects here. From the
   * process's card replica while it is in step (no statement), else from PostgreSQL, where texts of row versions
   * written before are not written again (CardTextCache).
   */
  async rawByIds(accountIds: number[]): Promise<Map<number, RawJson<LeaderboardAccount>>> {
    const held = await this.replica.texts(accountIds);
    if (!held) return (await this.rawCards<object>(RAW_CARDS_SQL, accountIds)).cards;
    const cards = new Map<number, RawJson<LeaderboardAccount>>();
    const missing: number[] = [];
    for (const id of accountIds) {
      const text = held.get(id);
      if (text === undefined) missing.push(id);
      else cards.set(id, new RawJson(text));
    }
    // Not held: added since the replica loaded and not announced yet, or not stored at all.
    if (missing.length) for (const [id, card] of (await this.rawCards<object>(RAW_CARDS_SQL, missing)).cards) cards.set(id, card);
    return cards;
  }

  /** `rawByIds`, and when each account last completed an update (ms; absent: never), in the same statement. */
  async rawByIdsWithUpdated(
    accountIds: number[],
  ): Promise<{ cards: Map<number, RawJson<LeaderboardAccount>>; updated: Map<number, number> }> {
    const { cards, row } = await this.rawCards<{ updated: Record<string, number | null> | null }>(RAW_CARDS_UPDATED_SQL, accountIds);
    const updated = new Map<number, number>();
    for (const [id, ms] of Object.entries(row?.updated ?? {})) if (ms !== null) updated.set(Number(id), Number(ms));
    return { cards, updated };
  }

  /** `rawByIdsWithUpdated`, and which of the accounts chose to be hidden (`account_settings.hidden`), in the same statement. */
  async rawByIdsWithUpdatedAndHidden(
    accountIds: number[],
  ): Promise<{ cards: Map<number, RawJson<LeaderboardAccount>>; updated: Map<number, number>; hidden: Set<number> }> {
    const { cards, row } = await this.rawCards<{ updated: Record<string, number | null> | null; hidden: number[] }>(
      RAW_CARDS_UPDATED_HIDDEN_SQL,
      accountIds,
    );
    const updated = new Map<number, number>();
    for (const [id, ms] of Object.entries(row?.updated ?? {})) if (ms !== null) updated.set(Number(id), Number(ms));
    return { cards, updated, hidden: new Set(row?.hidden ?? []) };
  }

  /** Runs a statement of SentCards (`cards`, with `$1` the ids and `$2` the versions held) and reads its cards. */
  private async rawCards<Extra extends object>(
    sql: string,
    accountIds: number[],
  ): Promise<{ cards: Map<number, RawJson<LeaderboardAccount>>; row: Extra | null }> {
    const cards = new Map<number, RawJson<LeaderboardAccount>>();
    if (!accountIds.length) return { cards, row: null };
    const ids = idsForGenericPlan(accountIds);
    const { versions, text } = this.texts.lookup(ids);
    const [row]: ({ cards: SentCard[] | null } & Extra)[] = await this.accounts.query(sql, [ids, versions]);
    for (const card of row.cards ?? []) cards.set(card[0], new RawJson(text(card)));
    return { cards, row };
  }

  /**
   * `byIds`, and which of the accounts chose to be hidden (`account_settings.hidden`), in the same statement: the
   * leaderboard windows need both (a hidden account keeps its rank but its row is not shown).
   */
  async withHidden(accountIds: number[]): Promise<{ cards: Map<number, LeaderboardAccount>; hidden: Set<number> }> {
    const cards = new Map<number, LeaderboardAccount>();
    if (!accountIds.length) return { cards, hidden: new Set() };
    const [row]: { cards: CardValues[] | null; hidden: number[] }[] = await this.accounts.query(CARDS_WITH_HIDDEN_SQL, [
      idsForGenericPlan(accountIds),
    ]);
    for (const v of row.cards ?? []) cards.set(v[0], cardOf(v));
    return { cards, hidden: new Set(row.hidden) };
  }

  /**
   * Which of the accounts chose to be hidden (`account_settings.hidden`): from the card replica while it is in step
   * (no statement), else one primary-key probe per id.
   */
  async hiddenAmong(accountIds: number[]): Promise<Set<number>> {
    if (!accountIds.length) return new Set();
    const held = await this.replica.hiddenAmong(accountIds);
    if (held) return held;
    // The ids as one array literal, not a JS array: pg's serializer builds one string per element, and the exports
    // (a thousand ids a batch) found those promoted to the old generation (docs/performance.md, "Exports").
    const rows: { account_id: number }[] = await this.accounts.query(
      'SELECT account_id FROM account_settings WHERE hidden AND account_id = ANY($1::int[])',
      [`{${accountIds.join(',')}}`],
    );
    return new Set(rows.map((row) => row.account_id));
  }

  /**
   * The largest page a caller may ask of a donor-perk listing: the resource an operator granted the account
   * (account-records/resources), else its donor tier's (donor-tiers.ts). One statement.
   */
  async maxPageSize(accountId: number, resource: 'max_badge_crafters' | 'max_find_owners'): Promise<number> {
    const { donated, roles, granted } = await this.supportOf(accountId, resource);
    return granted ?? maxPageSizeOf(donated, roles);
  }

  /** What the donor tier is made of: the account's lifetime donations (cents) and its roles; and a granted resource. */
  async supportOf(accountId: number, resource = ''): Promise<{ donated: number; roles: HeldRole[]; granted: number | null }> {
    const [row]: { donated: string | null; roles: HeldRole[] | null; granted: number | null }[] = await this.roles.query(
      `SELECT (SELECT donated FROM accounts WHERE account_id = $1) AS donated,
              (SELECT json_agg(json_build_object('role', role, 'extras', extras)) FROM account_roles WHERE account_id = $1) AS roles,
              ${GRANTED_VALUE_SQL('$1', '$2')} AS granted`,
      [accountId, resource],
    );
    return { donated: Number(row?.donated ?? 0), roles: row?.roles ?? [], granted: row?.granted ?? null };
  }
}

/** Every column of an entity's table as `column AS "property"`. */
export function selectList(repository: Repository<object>): string {
  return repository.metadata.columns.map((column) => `${column.databaseName} AS "${column.propertyName}"`).join(', ');
}
