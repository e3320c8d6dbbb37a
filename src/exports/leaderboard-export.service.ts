import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { Principal } from '../common/auth/principal';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { JsonLogger } from '../common/logging/json-logger';
import { unprocessable } from '../common/problem/problem.exception';
import { AccountLeaderboardService } from '../leaderboards/account-leaderboard.service';
import { RowExtras } from '../leaderboards/board-page.service';
import { V1AccountLeaderboardAccount } from '../leaderboards/dto/account-leaderboard.dto';
import { LeaderboardAccountsService } from '../account-records/cards/leaderboard-accounts.service';
import { RankReader } from '../ranks/rank-reader.service';
import { LeaderboardExportRequestBody } from './dto/exports.dto';
import { ExportLimits } from './export-limits';
import { ExportBatch, ExportWindowReader } from './export-window';
import { ExportWriter, csvCell } from './export-writer';

/** The rows whose cards are read and written at once (see writeBatch). */
const WRITE_ROWS = 100;

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
 * so the walk never re-reads what it passed) — each batch's rows the board's windows' rows (BoardPageService.rowsOf:
 * same cards, same extras, hidden accounts left out), written from the cards' stored texts before the next is read.
 * A board that moves during the export is read as it stands when each batch is read. Memory: docs/performance.md,
 * "Exports" (issue 62: < +50 MB of RSS for a million rows).
 */
@Injectable()
export class LeaderboardExportService {
  private readonly logger = new JsonLogger('LeaderboardExport');

  constructor(
    private readonly boards: AccountLeaderboardService,
    private readonly ranks: RankReader,
    private readonly windows: ExportWindowReader,
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
      // Positions per batch (EXPORTS_BATCH): one ZREVRANGE (O(log N + batch)) into the batch's two columns; the
      // hidden accounts, extras and cards are read and written WRITE_ROWS at a time (chunkText).
      const batch = new ExportBatch(this.config.exports.batch);
      let position = start;
      let lastZero: number | null = null;
      while (position <= end && !writer.aborted) {
        const to = Math.min(end, position + batch.capacity - 1);
        if (position <= board.scored) await this.windows.window(board, position, Math.min(to, board.scored), batch);
        else {
          // The first batch of the zero tail finds its place by offset (once), the next ones after the last id read.
          batch.fillUnranked(
            lastZero === null
              ? await this.ranks.zeroTail(board, position - board.scored - 1, to - position + 1)
              : await this.ranks.zeroTailAfter(board, lastZero, to - position + 1),
          );
          if (batch.length) lastZero = batch.lastAccountId;
        }
        // The board shrank under the export (a rebuild, accounts removed): it ends where the board does.
        if (!batch.length) break;
        for (let from = 0; from < batch.length && !writer.aborted; from += WRITE_ROWS) {
          const chunk = await this.chunkText(writer.format, batch, from, principal.accountId, resolved.extras);
          if (chunk.rows) await writer.writeText(chunk.text, chunk.rows);
        }
        position += batch.length;
      }
      this.limits.ended(writer.aborted);
      writer.end();
      // The heap's figures beside the RSS: `bench:export --heap` prints them (what grew: the JS heap or outside it).
      this.logger.log({ msg: 'leaderboard export ended', rows: writer.rows, format: writer.format, memory: memoryMb() });
    } catch (error) {
      // The headers are gone: the client learns of the failure from a response cut short, never a clean end.
      this.logger.error({ msg: 'leaderboard export failed', error: String(error), rows: writer.rows });
      writer.end(error);
    }
  }

  /**
   * A chunk of a batch (WRITE_ROWS rows) as text, from the cards' stored JSON texts (LeaderboardAccountsService.rawByIds:
   * the process's card replica, else PostgreSQL's text), in both formats: the same row as rowsOf builds
   * (`Object.assign({}, card, {rank, appPlaytime: null}, extras)`, keys in that order) for a fraction of the garbage.
   * NDJSON lines are the texts with the rank and extras appended, never parsed; a CSV record parses one card's text at
   * a time. Everything a chunk allocates (its entries, cards, hidden set, parts) dies when this returns, before the
   * caller waits for the socket: what survives two young-generation collections is promoted, and promoted garbage is
   * what made the old generation (and the RSS, which V8 does not hand back at once) grow with the export's size.
   */
  private async chunkText(
    format: ExportWriter['format'],
    batch: ExportBatch,
    from: number,
    caller: number,
    extras: RowExtras,
  ): Promise<{ text: string; rows: number }> {
    const entries = batch.entries(from, from + WRITE_ROWS);
    const ids = entries.map((entry) => entry.accountId);
    const [hidden, extra, cards] = await Promise.all([this.cards.hiddenAmong(ids), extras(entries), this.cards.rawByIds(ids)]);
    const parts: string[] = [];
    for (const entry of entries) {
      const card = cards.get(entry.accountId);
      if (!card || (hidden.has(entry.accountId) && entry.accountId !== caller)) continue;
      const more = extra(entry);
      if (format === 'csv') parts.push(csvRecord(card.text, entry.rank, more));
      else
        parts.push(
          `${card.text.slice(0, -1)},"rank":${entry.rank},"appPlaytime":${JSON.stringify(more.appPlaytime ?? null)}` +
            `${more.badgeInfo !== undefined ? `,"badgeInfo":${JSON.stringify(more.badgeInfo)}` : ''}}\n`,
        );
    }
    return { text: parts.join(''), rows: parts.length };
  }
}

/** The process's memory figures in MB (process.memoryUsage). */
function memoryMb(): Record<string, number> {
  const usage = process.memoryUsage();
  return Object.fromEntries(Object.entries(usage).map(([key, bytes]) => [key, Math.round(bytes / 2 ** 17) / 8]));
}

/** A CSV record (LEADERBOARD_EXPORT_COLUMNS) of a card's stored JSON text, its rank and the board's extras. */
function csvRecord(text: string, rank: number, more: Partial<V1AccountLeaderboardAccount>): string {
  const card = JSON.parse(text) as Record<string, unknown>;
  const cells = new Array<string>(LEADERBOARD_EXPORT_COLUMNS.length);
  for (let i = 0; i < LEADERBOARD_EXPORT_COLUMNS.length; i++) {
    const column = LEADERBOARD_EXPORT_COLUMNS[i];
    const value =
      column === 'rank'
        ? rank
        : column === 'appPlaytime'
          ? (more.appPlaytime ?? null)
          : column === 'badgeInfo'
            ? more.badgeInfo
            : card[column];
    cells[i] = csvCell(value);
  }
  return cells.join(',') + '\r\n';
}
