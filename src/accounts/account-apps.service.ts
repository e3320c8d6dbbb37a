import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SqlConditions } from '../common/sql/sql-conditions';
import { SearchTrendsService } from '../search/search-trends.service';
import { AccountLookupService } from '../account-records/account-lookup.service';
import { APPS_PAGE_SIZE, V1AccountListAppsRequest, V1AccountListAppsResponseBody } from './dto/list-apps.dto';

/** `account.listApps`: an account's library with playtime, filtered, ordered and paged. */
@Injectable()
export class AccountAppsService {
  constructor(
    private readonly lookup: AccountLookupService,
    private readonly searches: SearchTrendsService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async list(request: V1AccountListAppsRequest, searcher?: string): Promise<V1AccountListAppsResponseBody> {
    const { accountId } = await this.lookup.findTracked(request);
    if (request.search && searcher) await this.searches.record('app', request.search, searcher);
    const where = new SqlConditions();
    where.add((p) => `aa.account_id = ${p}`, accountId);
    where.range('aa.playtime', request.filters?.playtime);
    const appType = request.filters?.appType;
    if (appType && appType !== 'game') where.parts.push('false');
    if (request.search) where.add((p) => `a.name ILIKE ${p}`, SqlConditions.contains(request.search));
    const from = `FROM account_apps aa JOIN apps a ON a.app_id = aa.app_id WHERE ${where.sql()}`;
    const [{ total }] = await this.dataSource.query(`SELECT count(*)::int AS total ${from}`, where.parameters);
    const column = request.order?.by === 'appId' ? 'aa.app_id' : 'aa.playtime';
    const direction = request.order?.direction === 'asc' ? 'ASC' : 'DESC';
    const page = request.page ?? 1;
    // The price: the app's normal card set at the market (the pricing job's), one key probe per app of the page.
    const rows: { app_id: number; name: string; icon: string; playtime: number; price: number }[] = await this.dataSource.query(
      `SELECT p.app_id, p.name, p.icon, p.playtime, COALESCE(m.set_price, 0) AS price
         FROM (SELECT aa.app_id, a.name, a.icon, aa.playtime ${from}
                ORDER BY ${column} ${direction}, aa.app_id ${direction}
                LIMIT ${APPS_PAGE_SIZE} OFFSET ${(page - 1) * APPS_PAGE_SIZE}) p
         LEFT JOIN app_market_prices m ON m.app_id = p.app_id AND m.badge_type = 'normal'
        ORDER BY p.${column.slice(3)} ${direction}, p.app_id ${direction}`,
      where.parameters,
    );
    return {
      apps: rows.map((row) => ({ id: row.app_id, name: row.name, image: row.icon, playtime: row.playtime, price: row.price })),
      pages: Math.ceil(total / APPS_PAGE_SIZE),
      totalHits: total,
    };
  }
}
