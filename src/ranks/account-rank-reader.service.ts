import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { REDIS } from '../common/redis/redis.module';
import { CHANGE_BOARDS, COLUMN_BOARDS, PROFILE_RANK_BOARDS } from './account-boards';
import { BoardRanks, ColumnRanks } from './column-ranks';
import { RankEngine } from './rank-engine.service';
import { PROFILE_RANKS_LUA } from './profile-ranks.lua';
import { RankReplicaService } from './replica/rank-replica.service';
import { RANKED_COLUMNS, SCOPE_LEVELS, ScopeLevel, memberOf } from './rank-scopes';

/** Boards of `account.listLeaderboardHistory`: the column boards but `valid_playtime` (the same as `playtime`). */
export const HISTORY_BOARDS = CHANGE_BOARDS.filter((board) => board !== 'valid_playtime') as string[];

export interface AccountBoardRanks extends BoardRanks {
  score: number;
}

/** The level of a scope key, by its first two characters (see scopeKeysOf). */
const LEVEL_OF_SCOPE: Record<string, ScopeLevel> = { g: 'global', 'r:': 'region', 'c:': 'country', 's:': 'state', 't:': 'city' };

type ProfileRanksScript = (versionKey: string, versionPrefix: string, ...args: string[]) => Promise<(string | number)[]>;

/**
 * One account's ranks on every column board in each of its scopes (the profile's `currentRanks`, the update worker's
 * rank history), read in one script (profile-ranks.lua.ts). RankReader reads boards; this reads one account across them.
 */
@Injectable()
export class AccountRankReader {
  private readonly profileRanksScript: ProfileRanksScript;

  constructor(
    private readonly engine: RankEngine,
    private readonly replica: RankReplicaService,
    @Inject(REDIS) redis: Redis,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    // defineCommand runs the script by EVALSHA, loading it once per connection.
    redis.defineCommand('badgeStatsProfileRanks', { numberOfKeys: 1, lua: PROFILE_RANKS_LUA });
    const command = (redis as unknown as Record<string, ProfileRanksScript>).badgeStatsProfileRanks;
    this.profileRanksScript = command.bind(redis) as ProfileRanksScript;
  }

  /**
   * Every column board's ranks of an account with its scores there (null when it is not on the boards: never
   * refreshed), as the update worker records them (RankHistoryRecorder).
   */
  async accountRanks(accountId: number): Promise<Map<string, AccountBoardRanks> | null> {
    // From Redis even where a replica serves: the worker records right after placing, before a replica hears of it.
    const [scores, ranks] = await Promise.all([this.storedScores(accountId), this.redisRanks(accountId)]);
    if (!scores || !ranks) return null;
    return new Map([...ranks].map(([board, r]) => [board, { ...r, score: scores[COLUMN_BOARDS[board as keyof typeof COLUMN_BOARDS]!] }]));
  }

  /**
   * An account's ranks on every ranked column, live (null when it is not on the boards: never refreshed): from this
   * process's replica of the boards when it has a complete one, else by one script that needs nothing from
   * PostgreSQL, so the profile sends it beside its statement.
   */
  async columnRanks(accountId: number): Promise<ColumnRanks | null> {
    const local = this.replica.columnRanks(accountId);
    if (local !== undefined) return local;
    const byColumn = await this.profileRanks(accountId, RANKED_COLUMNS);
    return byColumn && ColumnRanks.fromMap(RANKED_COLUMNS, byColumn);
  }

  private async redisRanks(accountId: number): Promise<Map<string, BoardRanks> | null> {
    const byColumn = await this.profileRanks(accountId, RANKED_COLUMNS);
    return byColumn && this.byBoard(byColumn);
  }

  private byBoard(byColumn: Map<string, BoardRanks>): Map<string, BoardRanks> {
    return new Map(PROFILE_RANK_BOARDS.map((board) => [board, byColumn.get(COLUMN_BOARDS[board as keyof typeof COLUMN_BOARDS]!)!]));
  }

  /** The account's RANKED_COLUMNS values by column, or null unless it was refreshed. */
  private async storedScores(accountId: number): Promise<Record<string, number> | null> {
    const [row]: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT ${RANKED_COLUMNS.join(', ')} FROM accounts WHERE account_id = $1 AND updated_at IS NOT NULL`,
      [accountId],
    );
    return row ? Object.fromEntries(RANKED_COLUMNS.map((column) => [column, Number(row[column])])) : null;
  }

  /**
   * The account's ranks in its five scopes and the size of each (0 where it has no such location): one script
   * (profile-ranks.lua.ts). Null without a version or when the account is not on the boards (never refreshed).
   */
  private async profileRanks(accountId: number, columns: string[]): Promise<Map<string, BoardRanks> | null> {
    const keys = this.engine.keys;
    const out = await this.profileRanksScript(keys.version, keys.versionPrefix, String(accountId), memberOf(accountId), ...columns);
    if (out.length === 0) {
      this.engine.startBuild();
      return null;
    }
    if (out.length === 1) return null;
    const n = Number(out[1]);
    const levels = out.slice(2, 2 + n).map((scope) => LEVEL_OF_SCOPE[String(scope).slice(0, 2)] ?? 'global');
    // Where each of the five levels sits in the script's scopes (-1: the account has no such location).
    const slots = SCOPE_LEVELS.map((level: ScopeLevel) => levels.indexOf(level));
    const populations = out.slice(2 + n, 2 + 2 * n).map(Number);
    // The same scopes, hence the same totals, on every board.
    const totals = slots.map((i) => (i < 0 ? 0 : populations[i]));
    // A 0-based rank index, or -1 where the account scores 0: a zero value is unranked (rank 0).
    const results = out.slice(2 + 2 * n).map(Number);
    const byColumn = new Map<string, BoardRanks>();
    columns.forEach((column, c) => {
      const ranks = slots.map((i) => {
        if (i < 0) return 0;
        const at = results[c * n + i];
        return at >= 0 ? at + 1 : 0;
      });
      byColumn.set(column, { ranks, totals: [...totals] });
    });
    return byColumn;
  }
}
