import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { Principal } from '../common/auth/principal';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { JsonLogger } from '../common/logging/json-logger';
import { unprocessable } from '../common/problem/problem.exception';
import { AccountLeaderboardService } from '../leaderboards/account-leaderboard.service';
import { BoardPageService, RowExtras } from '../leaderboards/board-page.service';
import { LeaderboardAccountsService } from '../account-records/cards/leaderboard-accounts.service';
import { RankedEntry, RankReader } from '../ranks/rank-reader.service';
import { LeaderboardExportRequestBody } from './dto/exports.dto';
import { ExportLimits } from './export-limits';
import { ExportWriter } from './export-writer';

/** The most positions a CSV batch holds (see export()). */
const CSV_BATCH = 200;

/** The CSV columns of a board's rows: `leaderboard.getAccountLeaderboard`'s row, field by field (objects as JSON text). */
export const LEADERBOARD_EXPORT_COLUMNS = [
  'rank',
  'steamId',
  'name',
  'avatar',
  'animatedAvatar',
  'avatarFrame',
  'background',
  'miniBackground',
  'privacy',
  'apps',
  'badges',
  'foilBadges',
  'normalBadges',
  'friends',
  'level',
  'xp',
  'playtime',
  'awardsGiven',
  'awardsReceived',
  'pointsGiven',
  'pointsReceived',
  'donated',
  'bans',
  'gameBans',
  'vacBans',
  'steamSetsScore',
  'appCost',
  'foilBadgeCost',
  'normalBadgeCost',
  'economyBan',
  'createdAt',
  'steamSetsVanity',
  'steamVanity',
  'images',
  'roles',
  'city',
  'region',
  'state',
  'country',
  'appPlaytime',
  'badgeInfo',
] as const;

/**
 * `leaderboard.export`: a range of positions of any board, walked batch by batch through the rank engine — the
 * sorted set's part by position (ZREVRANGE), the accounts scoring 0 after it by account id (keyset on the primary key,
 * so the walk never re-reads what it passed) — each batch's rows mapped as the board's windows map them
 * (BoardPageService.rowsOf: same cards, same extras, hidden accounts left out) and written before the next is read.
 * A board that moves during the export is read as it stands when each batch is read.
 */
@Injectable()
export class LeaderboardExportService {
  private readonly logger = new JsonLogger('LeaderboardExport');

  constructor(
    private readonly boards: AccountLeaderboardService,
    private readonly pages: BoardPageService,
    private readonly ranks: RankReader,
    private readonly cards: LeaderboardAccountsService,
    private readonly limits: ExportLimits,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async export(request: LeaderboardExportRequestBody, principal: Principal, res: Response): Promise<void> {
    const start = Math.max(1, request.start ?? 1);
    if (request.end !== undefined && request.end !== null && request.end < start)
      throw unprocessable('`end` must not be before `start`.', [{ location: 'body.end', message: 'end < start', value: request.end }]);
    await this.limits.admit(principal, res);
    const resolved = await this.boards.resolve(request);
    const board = resolved.board;
    const end = Math.min(request.end ?? board.population, board.population);
    const writer = new ExportWriter(res, request.format ?? 'ndjson', LEADERBOARD_EXPORT_COLUMNS);
    writer.start(`leaderboard-${request.leaderboard}`);
    try {
      // Positions per batch (EXPORTS_BATCH): one ZREVRANGE (O(log N + batch)) and one statement of the batch's cards.
      // CSV batches are smaller: their rows are built as objects (rowsOf), whose garbage grows the heap with the batch
      // (50k-row board: +58 MB of RSS at 1000, +32 MB at 200, for 13k → 9k rows/s).
      const batch = writer.format === 'csv' ? Math.min(this.config.exports.batch, CSV_BATCH) : this.config.exports.batch;
      let position = start;
      let lastZero: number | null = null;
      while (position <= end && !writer.aborted) {
        const to = Math.min(end, position + batch - 1);
        let entries: RankedEntry[];
        if (position <= board.scored) {
          entries = await this.ranks.window(board, position, Math.min(to, board.scored));
        } else {
          const limit = to - position + 1;
          // The first batch of the zero tail finds its place by offset (once), the next ones after the last id read.
          const ids: number[] =
            lastZero === null
              ? await this.ranks.zeroTail(board, position - board.scored - 1, limit)
              : await this.ranks.zeroTailAfter(board, lastZero, limit);
          entries = ids.map((accountId) => ({ accountId, score: 0, rank: 0 }));
          if (ids.length) lastZero = ids[ids.length - 1];
        }
        // The board shrank under the export (a rebuild, accounts removed): it ends where the board does.
        if (!entries.length) break;
        if (writer.format === 'ndjson') {
          const { text, rows } = await this.ndjson(entries, principal.accountId, resolved.extras);
          await writer.writeText(text, rows);
        } else {
          const { rows } = await this.pages.rowsOf(entries, principal.accountId, resolved.extras);
          await writer.write(rows.filter((row) => row !== null));
        }
        position += entries.length;
      }
      this.limits.ended(writer.aborted);
      writer.end();
    } catch (error) {
      // The headers are gone: the client learns of the failure from a response cut short, never a clean end.
      this.logger.error({ msg: 'leaderboard export failed', error: String(error), rows: writer.rows });
      writer.end(error);
    }
  }

  /**
   * A batch as NDJSON lines written from the cards' stored JSON texts (LeaderboardAccountsService.rawByIds: the
   * process's card replica, else PostgreSQL's text), never parsed into objects: the same row as rowsOf builds
   * (`Object.assign({}, card, {rank, appPlaytime: null}, extras)`, keys in that order) for a fraction of the garbage,
   * which is what a whole board's export makes the heap grow with.
   */
  private async ndjson(entries: RankedEntry[], caller: number, extras: RowExtras): Promise<{ text: string; rows: number }> {
    const ids = entries.map((entry) => entry.accountId);
    const [cards, hidden, extra] = await Promise.all([this.cards.rawByIds(ids), this.cards.hiddenAmong(ids), extras(entries)]);
    let text = '';
    let rows = 0;
    for (const entry of entries) {
      const card = cards.get(entry.accountId);
      if (!card || (hidden.has(entry.accountId) && entry.accountId !== caller)) continue;
      const more = extra(entry);
      text +=
        `${card.text.slice(0, -1)},"rank":${entry.rank},"appPlaytime":${JSON.stringify(more.appPlaytime ?? null)}` +
        `${more.badgeInfo !== undefined ? `,"badgeInfo":${JSON.stringify(more.badgeInfo)}` : ''}}\n`;
      rows++;
    }
    return { text, rows };
  }
}
