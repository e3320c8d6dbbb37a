import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { BadgeCatalogService } from '../badges/badge-catalog.service';
import { addBadgeFilters, BADGE_NAME_ORDER } from '../badges/badge-filters';
import { ProblemException, unprocessable } from '../common/problem/problem.exception';
import { SqlConditions } from '../common/sql/sql-conditions';
import { AccountLookupService, AccountSelector } from '../account-records/account-lookup.service';
import {
  COMPARE_PAGE_SIZE,
  CompareOrderBy,
  V1AccountCompareBadgesRequestBody,
  V1AccountCompareBadgesResponseBody,
} from './dto/compare-badges.dto';
import { AccountEntity } from '../account-records/entities/account.entity';
import { Holding, toComparedTuple, toResolvedAccount } from './mappers/compare-badges.mapper';

/** The sort key of a tuple (columns of `matched` below). */
const ORDER_COLUMNS: Record<CompareOrderBy, string> = {
  scarcity: 'scarcity',
  level: 'level',
  name: 'name',
  xp: 'xp',
  completedAt: 'completed_at',
};

/**
 * `account.compareBadges`: the badges of up to ten accounts side by side. It reads only the compared accounts'
 * badges (a range of `account_badges`' primary key per account, a few hundred rows each) and the definitions of
 * the badges they hold, so its cost does not grow with the number of tracked accounts.
 */
@Injectable()
export class CompareBadgesService {
  constructor(
    private readonly lookup: AccountLookupService,
    private readonly catalog: BadgeCatalogService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async compare(request: V1AccountCompareBadgesRequestBody): Promise<V1AccountCompareBadgesResponseBody> {
    const resolved = await Promise.all(request.accounts.map((selector, i) => this.resolve(selector, `body.accounts[${i}]`)));
    // An account named twice is compared once: counting it twice would make `unique` and `ownedByAll` lie.
    const accounts = [...new Map(resolved.map((account) => [account.accountId, account])).values()];
    const accountIds = accounts.map((account) => account.accountId);

    const where = new SqlConditions();
    where.add((p) => `ab.account_id = ANY(${p})`, accountIds);
    const ignore = new Set(request.ignore ?? []);
    const filter = request.filter ?? 'all';
    addBadgeFilters(where, {
      appIds: request.appIds,
      excludeAppIds: request.excludeAppIds,
      appTypes: request.appTypes,
      isFoil: filter === 'all' ? undefined : filter === 'foil',
      isEvent: ignore.has('event') ? false : undefined,
      isSale: ignore.has('sale') ? false : undefined,
      excludeSpecial: ignore.has('steam'),
      excludeInfinite: ignore.has('infinite'),
      scarcity: (request.ranges ?? []).filter((range) => range.type === 'scarcity'),
    });

    // When a holding counts as holding the tuple. `top_level` is the highest level among the compared holdings.
    const match = request.match ?? 'tuple';
    const holds =
      match === 'tupleLevel'
        ? 'h.level = h.top_level'
        : match === 'tupleMinLevel'
          ? `h.level >= ${this.placeholder(where, request.minLevel ?? 1)}`
          : 'true';
    const compared = accountIds.length;
    const mode = request.mode ?? 'missing';
    const selected = [
      mode === 'ownedByAll' ? `t.holders = ${compared}` : mode === 'unique' ? 't.holders = 1' : `t.holders BETWEEN 1 AND ${compared - 1}`,
    ];
    let difference = '';
    if (request.difference) {
      const [has, lacks] = await Promise.all([
        this.member(request.difference.has, accountIds, 'body.difference.has'),
        this.member(request.difference.lacks, accountIds, 'body.difference.lacks'),
      ]);
      difference = `, bool_or(h.account_id = ${this.placeholder(where, has)} AND ${holds}) AS has_it,
                      bool_or(h.account_id = ${this.placeholder(where, lacks)} AND ${holds}) AS lacks_it`;
      selected.push('t.has_it', 'NOT t.lacks_it');
    }

    const order = request.order ?? {};
    const direction = order.direction === 'asc' ? 'ASC' : 'DESC';
    const page = request.page ?? 1;
    const [{ total, ids }]: { total: number; ids: number[] }[] = await this.dataSource.query(
      `WITH holdings AS (
         SELECT ab.badge_id, ab.account_id, ab.level, ab.xp, ab.completion_time,
                max(ab.level) OVER (PARTITION BY ab.badge_id) AS top_level
           FROM account_badges ab JOIN badges b ON b.id = ab.badge_id
          WHERE ${where.sql()}
       ), tuples AS (
         SELECT h.badge_id, count(*) FILTER (WHERE ${holds})::int AS holders,
                max(h.level) AS level, max(h.xp) AS xp, max(h.completion_time) AS completed_at ${difference}
           FROM holdings h GROUP BY h.badge_id
       ), matched AS (
         SELECT t.badge_id, t.level, t.xp, t.completed_at, b.scarcity, ${BADGE_NAME_ORDER} AS name
           FROM tuples t JOIN badges b ON b.id = t.badge_id LEFT JOIN apps a ON a.app_id = b.app_id
          WHERE ${selected.join(' AND ')}
       )
       SELECT (SELECT count(*)::int FROM matched) AS total,
              ARRAY(SELECT badge_id FROM matched
                     ORDER BY ${ORDER_COLUMNS[order.by ?? 'scarcity']} ${direction}, badge_id ${direction}
                     LIMIT ${COMPARE_PAGE_SIZE} OFFSET ${(page - 1) * COMPARE_PAGE_SIZE}) AS ids`,
      where.parameters,
    );
    return {
      accounts: accounts.map(toResolvedAccount),
      tuples: await this.tuples(ids, accountIds),
      pages: Math.ceil(total / COMPARE_PAGE_SIZE),
      totalHits: total,
    };
  }

  /** The page's tuples in the order of `ids`: the badges' statistics and every compared account's hold of them. */
  private async tuples(ids: number[], accountIds: number[]) {
    if (!ids.length) return [];
    type Row = { account_id: number; badge_id: number; level: number; xp: number; completion_time: Date };
    const [badges, rows] = await Promise.all([
      this.catalog.byIds(ids),
      // Primary-key probes: the page's badges of the compared accounts only.
      this.dataSource.query<Row[]>(
        `SELECT account_id, badge_id, level, xp, completion_time FROM account_badges
          WHERE account_id = ANY($1) AND badge_id = ANY($2)`,
        [accountIds, ids],
      ),
    ]);
    const holdings = new Map<number, Map<number, Holding>>(ids.map((id) => [id, new Map()]));
    for (const row of rows) {
      holdings.get(row.badge_id)!.set(row.account_id, { level: row.level, xp: row.xp, completionTime: row.completion_time });
    }
    const byId = new Map(badges.map((badge) => [badge.id, badge]));
    return ids.map((id) => toComparedTuple(byId.get(id)!, accountIds, holdings.get(id)!));
  }

  /** A tracked account; a 404 or 422 names the selector's place in the request. */
  private async resolve(selector: AccountSelector, location: string): Promise<AccountEntity> {
    try {
      return await this.lookup.findTracked(selector);
    } catch (error) {
      if (!(error instanceof ProblemException)) throw error;
      const errors = error.problem.errors?.map((detail) => ({ ...detail, location: detail.location?.replace(/^body/, location) }));
      throw new ProblemException(error.getStatus(), `${location.replace(/^body\./, '')}: ${error.detail}`, {
        ...error.problem,
        errors: errors ?? [{ location, message: error.detail, value: selector }],
      });
    }
  }

  /** The id of a `difference` account, which must be one of the compared accounts. */
  private async member(selector: AccountSelector, accountIds: number[], location: string): Promise<number> {
    const { accountId } = await this.resolve(selector, location);
    if (!accountIds.includes(accountId)) {
      throw unprocessable(`${location.replace(/^body\./, '')} must be one of the compared accounts.`, [
        { location, message: 'not one of accounts', value: selector },
      ]);
    }
    return accountId;
  }

  /** Binds `value` as the next parameter of `where` without adding a condition, for the later parts of the query. */
  private placeholder(where: SqlConditions, value: unknown): string {
    return `$${where.parameters.push(value)}`;
  }
}
