import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { appBadgeText, HOLDING_INFO_TEXT } from '../apps/mappers/app-badge-text';
import { V1AppBadge } from '../apps/dto/app-badges.dto';
import { BadgeCatalogService } from '../badges/badge-catalog.service';
import { addBadgeFilters, BADGE_NAME_ORDER } from '../badges/badge-filters';
import { SqlConditions } from '../common/sql/sql-conditions';
import { holdRawJson, RawJson } from '../common/wire/raw-json';
import { SearchTrendsService } from '../search/search-trends.service';
import { AccountLookupService } from '../account-records/account-lookup.service';
import { AccountSearch } from '../account-records/dto/account-search.dto';
import { BADGES_PAGE_SIZE, V1AccountListBadgesRequest, V1AccountListBadgesResponseBody } from './dto/list-badges.dto';

const ORDER_COLUMNS = {
  xp: 'ab.xp',
  level: 'ab.level',
  scarcity: 'b.scarcity',
  name: BADGE_NAME_ORDER,
  completion_time: 'ab.completion_time',
} as const;

/** A badge of the page with the account's holding of it, as JSON text. */
const PAGE_ITEM_TEXT = appBadgeText(HOLDING_INFO_TEXT);

/** A reference to the badge catalogue's aliases (`b.`, `a.`; not `ab.`) in a condition or an order. */
const READS_CATALOGUE = /(^|[^a-z_.])[ab]\./;

/** `account.listBadges`: the badges an account holds, filtered, ordered and paged. */
@Injectable()
export class AccountBadgesService {
  constructor(
    private readonly lookup: AccountLookupService,
    private readonly catalog: BadgeCatalogService,
    private readonly searches: SearchTrendsService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async list(request: V1AccountListBadgesRequest, searcher?: string): Promise<V1AccountListBadgesResponseBody> {
    // Named by id, the account is not read first: a page of its badges proves it is stored (their rows reference it),
    // and only an empty page asks whether it is (one statement fewer per page).
    const named = this.lookup.namedId(request);
    const accountId = named ?? (await this.lookup.findTracked(request)).accountId;
    const where = this.conditions(accountId, request);
    const order = request.order ?? {};
    const direction = order.direction === 'asc' ? 'ASC' : 'DESC';
    const page = request.page ?? 1;
    const orderBy = `${ORDER_COLUMNS[order.by ?? 'xp']} ${direction}, ab.badge_id ${direction}`;
    // The catalogue (`b` badges, `a` apps) is joined only when a filter or the order reads it. Unfiltered, the page
    // and its total are the account's own rows, by their primary key: joined, the planner (expecting hundreds of
    // rows for an account with tens) hashed the whole badge catalogue twice per page, most of the statement's time.
    const catalogue = READS_CATALOGUE.test(`${where.sql()} ${orderBy}`)
      ? 'JOIN badges b ON b.id = ab.badge_id LEFT JOIN apps a ON a.app_id = b.app_id '
      : '';
    const from = `FROM account_badges ab ${catalogue}WHERE ${where.sql()}`;
    // The page, its badges' statistics and the total in one statement (the total as an InitPlan, read once), the page
    // as JSON text written by PostgreSQL and sent as it is (app-badge-text.ts).
    const found = await this.catalog.holdingsAsText<{ total: number }>(
      `SELECT ab.* ${from} ORDER BY ${orderBy} LIMIT ${BADGES_PAGE_SIZE} OFFSET ${(page - 1) * BADGES_PAGE_SIZE}`,
      PAGE_ITEM_TEXT,
      `(SELECT count(*)::int ${from}) AS total`,
      orderBy,
      where.parameters,
    );
    if (!found.total && named !== null) await this.lookup.findTracked(request);
    // Counted once the account is known to be stored: a 404 writes nothing.
    if (request.search && searcher) await this.searches.record('badge', request.search, searcher);
    return holdRawJson({
      badges: new RawJson<V1AppBadge[]>(found.text),
      pages: Math.ceil(found.total / BADGES_PAGE_SIZE),
      totalHits: found.total,
    });
  }

  /** Badges completed per calendar month (UTC), keyed `YYYY-MM`, oldest first. */
  async heatmap(selector: AccountSearch): Promise<Record<string, number>> {
    const { accountId } = await this.lookup.findTracked(selector);
    const rows: { month: string; count: number }[] = await this.dataSource.query(
      `SELECT to_char(completion_time AT TIME ZONE 'UTC', 'YYYY-MM') AS month, count(*)::int AS count
         FROM account_badges WHERE account_id = $1 GROUP BY 1 ORDER BY 1`,
      [accountId],
    );
    return Object.fromEntries(rows.map((row) => [row.month, row.count]));
  }

  private conditions(accountId: number, request: V1AccountListBadgesRequest): SqlConditions {
    const where = new SqlConditions();
    where.add((p) => `ab.account_id = ${p}`, accountId);
    const filters = request.filters ?? {};
    const legacy = new Set(request.filter ?? []);
    addBadgeFilters(where, {
      appIds: filters.appIds,
      isFoil: filters.isFoil ?? (legacy.has('foil') || undefined),
      isSale: filters.isSale ?? (legacy.has('sale') || undefined),
      isEvent: filters.isEvent ?? (legacy.has('event') || undefined),
      scarcity: filters.scarcity ? [filters.scarcity] : [],
    });
    where.range('ab.level', filters.level);
    for (const legacyValue of request.valueFilter ?? []) {
      where.add((p) => `${legacyValue.type === 'level' ? 'ab.level' : 'b.scarcity'} = ${p}::bigint`, Number(legacyValue.value));
    }
    if (filters.hasHighestLevel !== undefined && filters.hasHighestLevel !== null) {
      const comparison = filters.hasHighestLevel ? '>=' : '<';
      // The maintained highest level of the badge's holders (badge_holder_stats), not a max over them per row.
      where.parts.push(
        `ab.level ${comparison} COALESCE((SELECT s.highest_level FROM badge_holder_stats s WHERE s.badge_id = ab.badge_id), 0)`,
      );
    }
    if (request.search) {
      where.add((p) => `(b.name ILIKE ${p} OR a.name ILIKE ${p})`, SqlConditions.contains(request.search));
    }
    return where;
  }
}
