import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { LeaderboardAccountsService } from '../accounts/leaderboard-accounts.service';
import { BadgeCatalogService, badgeName } from '../badges/badge-catalog.service';
import { forbidden, notFound, unprocessable } from '../common/problem/problem.exception';
import { SqlConditions } from '../common/sql-conditions';
import { APP_BOARDS, COLUMN_BOARDS, DEFAULT_WINDOW, MAX_WINDOW, RANKED } from './account-boards';
import { ColumnBoardService } from './column-board.service';
import {
  V1AccountLeaderboardAccount,
  V1LeaderboardGetAccountLeaderboardRequestBody as Request,
  V1LeaderboardGetAccountLeaderboardResponseBody as Response,
  V1LeaderboardLocation,
} from './dto/account-leaderboard.dto';

/** Where a board's scores come from: the FROM clause, the score expression and its direction. */
interface BoardSource {
  /** The badge columns (completion, level, xp), NULL on boards without a badge. */
  select: string;
  from: string;
  score: string;
  order: string;
  extra: Partial<Response>;
}

interface RankedRow {
  total: number;
  account_id: number;
  rank: string;
  score: number;
  completion_time: Date | null;
  level: number | null;
  xp: number | null;
}

/**
 * `leaderboard.getAccountLeaderboard`: serves a window of ranks (1-based, inclusive) plus the caller's own rank,
 * globally or within locations. Column boards come from the rank engine (ColumnBoardService); per-app and
 * per-badge boards are still ranked here with a window function over the board's rows.
 */
@Injectable()
export class AccountLeaderboardService {
  constructor(
    private readonly accounts: LeaderboardAccountsService,
    private readonly catalog: BadgeCatalogService,
    private readonly columnBoards: ColumnBoardService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async get(request: Request, callerAccountId: number): Promise<Response> {
    const [start, end] = this.window(request);
    const column = COLUMN_BOARDS[request.leaderboard];
    if (column) {
      const page = await this.columnBoards.page(request, column, start, end, callerAccountId);
      return { ...page, ...(request.location?.length ? { location: await this.locationInfo(request.location) } : {}) };
    }
    const where = new SqlConditions();
    const source = await this.source(request, where);
    where.parts.push(RANKED);
    this.locations(request.location ?? [], where);
    const window = where.parameters.length;
    const rows: RankedRow[] = await this.dataSource.query(
      `WITH ranked AS (
         SELECT a.account_id, ${source.score} AS score, ${source.select},
                row_number() OVER (ORDER BY ${source.order}, a.account_id) AS rank
           FROM ${source.from}
          WHERE ${where.sql()})
       SELECT (SELECT count(*)::int FROM ranked) AS total, r.* FROM ranked r
        WHERE r.rank BETWEEN $${window + 1} AND $${window + 2} OR r.account_id = $${window + 3}
        ORDER BY r.rank`,
      [...where.parameters, start, end, callerAccountId],
    );
    const cards = await this.accounts.byIds(rows.map((row) => row.account_id));
    const toRow = (row: RankedRow): V1AccountLeaderboardAccount | null => {
      const card = cards.get(row.account_id);
      if (!card) return null;
      return {
        ...card,
        rank: Number(row.rank),
        appPlaytime: APP_BOARDS.includes(request.leaderboard) ? row.score : null,
        ...(row.completion_time
          ? { badgeInfo: { completionTime: row.completion_time.toISOString(), level: row.level ?? 0, xp: row.xp ?? 0 } }
          : {}),
      };
    };
    const inWindow = rows.filter((row) => Number(row.rank) >= start && Number(row.rank) <= end);
    const own = rows.find((row) => row.account_id === callerAccountId && !inWindow.includes(row));
    return {
      accounts: inWindow.map(toRow),
      rankedOutOf: rows[0]?.total ?? (await this.count(source, where)),
      ...(own ? { ownAccount: toRow(own) } : {}),
      ...source.extra,
      ...(request.location?.length ? { location: await this.locationInfo(request.location) } : {}),
    };
  }

  /** The rank window: explicit bounds, or one of the same width centred on `goToLeaderboardRank`. */
  private window(request: Request): [number, number] {
    let start = Math.max(1, request.start ?? 1);
    let end = request.end ?? start + DEFAULT_WINDOW - 1;
    if (end < start)
      throw unprocessable('`end` must not be before `start`.', [{ location: 'body.end', message: 'end < start', value: request.end }]);
    const span = end - start + 1;
    if (span > MAX_WINDOW) throw forbidden(`A window may hold at most ${MAX_WINDOW} ranks.`);
    if (request.goToLeaderboardRank) {
      start = Math.max(1, request.goToLeaderboardRank - Math.floor(span / 2));
      end = start + span - 1;
    }
    return [start, end];
  }

  private async source(request: Request, where: SqlConditions): Promise<BoardSource> {
    const none = 'NULL::timestamptz AS completion_time, NULL::int AS level, NULL::int AS xp';
    if (APP_BOARDS.includes(request.leaderboard)) {
      const appId = request.app?.appId;
      if (appId === undefined)
        throw unprocessable('App boards need `app.appId`.', [{ location: 'body.app.appId', message: 'required', value: null }]);
      const [app]: { name: string; icon: string }[] = await this.dataSource.query('SELECT name, icon FROM apps WHERE app_id = $1', [appId]);
      if (!app) throw notFound(`App ${appId} is not known to this service.`);
      where.add((p) => `x.app_id = ${p}`, appId);
      return {
        select: none,
        from: 'account_apps x JOIN accounts a ON a.account_id = x.account_id',
        score: 'x.playtime',
        order: 'x.playtime DESC',
        extra: { app: { id: appId, name: app.name, image: app.icon, type: 'game' } },
      };
    }
    const badge = await this.badge(request);
    where.add((p) => `x.badge_id = ${p}`, badge.id);
    const earliest = request.leaderboard === 'badge_completion_time';
    return {
      select: 'x.completion_time, x.level, x.xp',
      from: 'account_badges x JOIN accounts a ON a.account_id = x.account_id',
      score: earliest ? 'extract(epoch FROM x.completion_time)::bigint' : 'x.level',
      order: earliest ? 'x.completion_time ASC' : 'x.level DESC, x.completion_time ASC',
      extra: {
        badgeInfo: {
          appId: badge.appId ?? 0,
          appName: badge.appName,
          appImage: badge.appIcon,
          image: badge.image,
          isFoil: badge.isFoil,
          level: badge.highestLevel,
          name: badgeName(badge),
        },
      },
    };
  }

  /** A board's badge: the app's normal or foil badge, or else a special badge with that id. */
  private async badge(request: Request) {
    const search = request.badge;
    if (!search) throw unprocessable('Badge boards need `badge`.', [{ location: 'body.badge', message: 'required', value: null }]);
    const keys = [
      `app:${search.id}:${search.isFoil ? 'foil' : 'normal'}`,
      ...(!search.isFoil && search.id <= 64 ? [`special:${search.id}`] : []),
    ];
    const [row]: { id: number }[] = await this.dataSource.query(
      'SELECT id FROM badges WHERE badge_key = ANY($1) ORDER BY app_id NULLS LAST LIMIT 1',
      [keys],
    );
    const [badge] = row ? await this.catalog.byIds([row.id]) : [];
    if (!badge) throw notFound(`No badge ${search.id}${search.isFoil ? ' (foil)' : ''} is known to this service.`);
    return badge;
  }

  private locations(locations: (V1LeaderboardLocation | null)[], where: SqlConditions): void {
    const alternatives = locations
      .filter((location): location is V1LeaderboardLocation => Boolean(location))
      .map((location) => {
        const parts: string[] = [];
        for (const [field, column] of [
          ['region', 'a.region'],
          ['country', 'a.country_name'],
          ['state', 'a.state_name'],
          ['city', 'a.city_name'],
        ] as const) {
          const value = location[field];
          if (!value) continue;
          where.parameters.push(value.toLowerCase());
          parts.push(`lower(${column}) = $${where.parameters.length}`);
        }
        return parts.length ? `(${parts.join(' AND ')})` : 'true';
      });
    if (alternatives.length) where.parts.push(`(${alternatives.join(' OR ')})`);
  }

  private async locationInfo(locations: (V1LeaderboardLocation | null)[]) {
    const resolved = [];
    for (const location of locations) {
      if (!location) continue;
      const [known]: { country_code: string | null }[] = location.country
        ? await this.dataSource.query('SELECT country_code FROM accounts WHERE lower(country_name) = lower($1) LIMIT 1', [location.country])
        : [];
      resolved.push({
        region: location.region ?? null,
        countryName: location.country ?? null,
        countryCode: known?.country_code ?? null,
        stateName: location.state ?? null,
        cityName: location.city ?? null,
      });
    }
    return resolved;
  }

  /** Board size when the window and the caller fall outside it (no row came back to carry the total). */
  private async count(source: BoardSource, where: SqlConditions): Promise<number> {
    const [{ total }] = await this.dataSource.query(
      `SELECT count(*)::int AS total FROM ${source.from} WHERE ${where.sql()}`,
      where.parameters,
    );
    return total;
  }
}
