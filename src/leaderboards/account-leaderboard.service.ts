import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { BadgeCatalogService, badgeName } from '../badges/badge-catalog.service';
import { notFound, unprocessable } from '../common/problem/problem.exception';
import { rankWindow } from '../common/wire/rank-window';
import { LazyBoards } from '../ranks/lazy-boards.service';
import { RankedEntry } from '../ranks/rank-reader.service';
import { RankReader } from '../ranks/rank-reader.service';
import { APP_BOARDS, COLUMN_BOARDS, DEFAULT_WINDOW, MAX_WINDOW } from '../ranks/account-boards';
import { BoardPage, BoardPageService, RowExtras } from './board-page.service';
import { BoardScope } from '../ranks/rank-reader.service';
import { idsForGenericPlan } from '../common/sql/generic-plan-ids';
import {
  V1LeaderboardGetAccountLeaderboardRequestBody as Request,
  V1LeaderboardGetAccountLeaderboardResponseBody as Response,
  V1LeaderboardLocation,
} from './dto/account-leaderboard.dto';

/** A board named by a request: a column board (callers scoring 0 are on it) or a per-app / per-badge set. */
export interface ResolvedBoard {
  kind: 'column' | 'set';
  board: BoardScope;
  extras: RowExtras;
  info: Pick<Response, 'app' | 'badgeInfo'>;
}

const NO_EXTRAS: RowExtras = async () => () => ({});

/**
 * `leaderboard.getAccountLeaderboard`: a window of ranks (1-based, inclusive) plus the caller's own rank, globally
 * or within locations, on any board — all served by the rank engine (src/ranks): column boards from their
 * maintained sorted sets, per-app and per-badge boards from sets built on first read (LazyBoards).
 */
@Injectable()
export class AccountLeaderboardService {
  constructor(
    private readonly catalog: BadgeCatalogService,
    private readonly pages: BoardPageService,
    private readonly ranks: RankReader,
    private readonly lazy: LazyBoards,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async get(request: Request, callerAccountId: number): Promise<Response> {
    const [start, end] = rankWindow(request, DEFAULT_WINDOW, MAX_WINDOW);
    const page = await this.page(request, start, end, callerAccountId);
    return { ...page, ...(request.location?.length ? { location: await this.locationInfo(request.location) } : {}) };
  }

  private async page(request: Request, start: number, end: number, caller: number): Promise<BoardPage & Partial<Response>> {
    const resolved = await this.resolve(request);
    const page =
      resolved.kind === 'column'
        ? await this.pages.columnPage(resolved.board, start, end, caller)
        : await this.pages.setPage(resolved.board, start, end, caller, resolved.extras);
    return { ...page, ...resolved.info };
  }

  /**
   * The board a request names (404/422 when it names none), what its rows add (`appPlaytime`, `badgeInfo`) and what
   * the answer says about it (`app`, `badgeInfo`). Shared with `leaderboard.export` (src/exports).
   */
  async resolve(request: Request): Promise<ResolvedBoard> {
    const column = COLUMN_BOARDS[request.leaderboard];
    if (column) return { kind: 'column', board: await this.ranks.scope(column, request.location), extras: NO_EXTRAS, info: {} };
    if (APP_BOARDS.includes(request.leaderboard)) {
      const appId = request.app?.appId;
      if (appId === undefined || appId === null)
        throw unprocessable('App boards need `app.appId`.', [{ location: 'body.app.appId', message: 'required', value: null }]);
      const [app]: { name: string; icon: string }[] = await this.dataSource.query('SELECT name, icon FROM apps WHERE app_id = $1', [appId]);
      if (!app) throw notFound(`App ${appId} is not known to this service.`);
      const board = await this.lazy.scope('app', appId, request.location);
      const extras: RowExtras = async () => (entry) => ({ appPlaytime: entry.score });
      return { kind: 'set', board, extras, info: { app: { id: appId, name: app.name, image: app.icon, type: 'game' } } };
    }
    const badge = await this.badge(request);
    const kind = request.leaderboard === 'badge_completion_time' ? 'badge_completion_time' : 'badge_highest_level';
    const board = await this.lazy.scope(kind, badge.id, request.location);
    return {
      kind: 'set',
      board,
      extras: (entries) => this.badgeInfo(badge.id, entries),
      info: {
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

  /** Each row's copy of the badge: when it was completed, its level and xp (one primary-key probe per row). */
  private async badgeInfo(badgeId: number, entries: RankedEntry[]) {
    const rows: { account_id: number; completion_time: Date; level: number; xp: number }[] = await this.dataSource.query(
      'SELECT account_id, completion_time, level, xp FROM account_badges WHERE badge_id = $1 AND account_id = ANY($2)',
      [badgeId, idsForGenericPlan(entries.map((entry) => entry.accountId))],
    );
    const byAccount = new Map(rows.map((row) => [row.account_id, row]));
    return (entry: RankedEntry) => {
      const row = byAccount.get(entry.accountId);
      return row ? { badgeInfo: { completionTime: row.completion_time.toISOString(), level: row.level, xp: row.xp } } : {};
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
    const badge = await this.catalog.firstByKey(keys);
    if (!badge) throw notFound(`No badge ${search.id}${search.isFoil ? ' (foil)' : ''} is known to this service.`);
    return badge;
  }

  private async locationInfo(locations: (V1LeaderboardLocation | null)[]) {
    const resolved = [];
    for (const location of locations) {
      if (!location) continue;
      resolved.push({
        region: location.region ?? null,
        countryName: location.country ?? null,
        countryCode: location.country ? await this.ranks.countryCode(location.country) : null,
        stateName: location.state ?? null,
        cityName: location.city ?? null,
      });
    }
    return resolved;
  }
}
