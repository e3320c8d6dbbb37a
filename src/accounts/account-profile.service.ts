import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { AccountLookupService, AccountSelector } from './account-lookup.service';
import { V1AccountGetInfoResponseBody } from './dto/account-profile.dto';
import { V1AccountBadgeStats } from './dto/badge-stats.dto';
import { V1AccountUpdateProgressResponseBody } from './dto/update-progress.dto';
import { AccountUpdateEntity } from './entities/account-update.entity';
import { toProfile } from './mappers/profile.mapper';
import { scarcityBucket } from './mappers/badge-stats.mapper';
import { UpdateProgressService } from './progress/update-progress.service';
import { AccountViewsService } from './views/account-views.service';
import { SearchTrendsService } from '../search/search-trends.service';
import { JsonLogger } from '../common/logging/json-logger';
import { AccountBoardRanks, RankReader } from '../ranks/rank-reader.service';
import { ExtrasRow, PROFILE_EXTRAS_SQL, profileExtrasOf } from './profile-extras';
import { BestLeaderboardRank, CurrentLeaderboardRank } from './dto/account-profile.dto';

/** Reads of one account: profile, badge statistics, update progress. */
@Injectable()
export class AccountProfileService {
  private readonly logger = new JsonLogger('AccountProfileService');

  constructor(
    private readonly lookup: AccountLookupService,
    private readonly progress: UpdateProgressService,
    private readonly views: AccountViewsService,
    private readonly searches: SearchTrendsService,
    @InjectRepository(AccountUpdateEntity) private readonly runs: Repository<AccountUpdateEntity>,
    private readonly ranks: RankReader,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** The profile; a `visitor` (see AccountViewsService.visitor) counts as one view of it. */
  async getInfo(selector: AccountSelector, visitor?: string): Promise<V1AccountGetInfoResponseBody> {
    // Two round trips: one statement for the account row with its roles, best ranks, images and costs
    // (profile-extras.ts), then one Redis script for the live ranks (which needs the row's scores and location).
    const { account, extra } = await this.lookup.findTrackedWith<ExtrasRow>(selector, PROFILE_EXTRAS_SQL);
    // Counting the view (and a vanity look-up as a search) must neither delay nor fail the profile.
    if (visitor) void this.countVisit(account.accountId, visitor, selector.vanity?.value);
    const extras = profileExtrasOf(account.accountId, extra);
    const current = account.updatedAt
      ? await this.ranks.accountRanks(account.accountId, account as unknown as Record<string, unknown>)
      : null;
    const ranks = this.currentRanks(current, extras.bestRanks);
    return Object.assign(toProfile(account, extras.roles, extras.costs), ranks, { images: extras.images });
  }

  /**
   * The account's ranks on every column board in its five scopes, live from the rank engine, and the best it
   * has held (kept by the update worker, merged with the current ones). Null for an account never refreshed.
   */
  private currentRanks(
    current: Map<string, AccountBoardRanks> | null,
    kept: Map<string, number[]>,
  ): { currentRanks: CurrentLeaderboardRank[] | null; currentBestRanks: BestLeaderboardRank[] | null } {
    if (!current) return { currentRanks: null, currentBestRanks: null };
    const better = (a: number, b: number) => (a === 0 ? b : b === 0 ? a : Math.min(a, b));
    return {
      currentRanks: [...current].map(([leaderboard, r]) => ({ leaderboard, ranks: r.ranks.join(','), totals: r.totals.join(',') })),
      currentBestRanks: [...current].map(([leaderboard, r]) => ({
        leaderboard,
        ranks: r.ranks.map((rank, i) => better(rank, kept.get(leaderboard)?.[i] ?? 0)).join(','),
      })),
    };
  }

  private async countVisit(accountId: number, visitor: string, vanity: string | undefined): Promise<void> {
    try {
      if (vanity) await this.searches.record('account', vanity, visitor);
      await this.views.record(accountId, visitor);
    } catch (error) {
      this.logger.warn({ msg: 'view not counted', error: String(error) });
    }
  }

  async getBadgeStats(selector: AccountSelector): Promise<V1AccountBadgeStats> {
    const { accountId } = await this.lookup.findTracked(selector);
    const rows: { app_id: number | null; is_foil: boolean; level: number; xp: number; scarcity: string }[] = await this.dataSource.query(
      `SELECT b.app_id, b.is_foil, ab.level, ab.xp, b.scarcity
         FROM account_badges ab JOIN badges b ON b.id = ab.badge_id WHERE ab.account_id = $1`,
      [accountId],
    );
    const stats: V1AccountBadgeStats = {
      count: { foil: 0, normal: 0, special: 0 },
      xp: { foil: 0, normal: 0 },
      levels: {},
      scarcities: {},
      totalBadges: rows.length,
    };
    for (const row of rows) {
      const kind = row.app_id === null ? 'special' : row.is_foil ? 'foil' : 'normal';
      stats.count[kind]++;
      if (kind !== 'special') stats.xp[kind] += row.xp;
      stats.levels[String(row.level)] = (stats.levels[String(row.level)] ?? 0) + 1;
      const bucket = scarcityBucket(Number(row.scarcity));
      stats.scarcities[bucket] = (stats.scarcities[bucket] ?? 0) + 1;
    }
    return stats;
  }

  /** Live progress from Redis while it is kept there, else the latest recorded run; absent when there is none. */
  async updateProgress(selector: AccountSelector): Promise<V1AccountUpdateProgressResponseBody> {
    const { accountId } = await this.lookup.findTracked(selector);
    const live = await this.progress.read(accountId);
    if (live) return { progress: live };
    const run = await this.runs.findOne({ where: { accountId }, order: { queuedAt: 'DESC' } });
    if (!run) return {};
    const base = UpdateProgressService.initial(accountId, run.runId, run.queuedAt);
    return {
      progress: {
        ...base,
        status: run.status,
        steps: run.steps.length ? run.steps : base.steps,
        percent: run.status === 'completed' ? 100 : 0,
        updatedAt: (run.finishedAt ?? run.startedAt ?? run.queuedAt).toISOString(),
        ...(run.startedAt ? { startedAt: run.startedAt.toISOString() } : {}),
        ...(run.finishedAt ? { finishedAt: run.finishedAt.toISOString() } : {}),
        ...(run.error ? { error: run.error } : {}),
      },
    };
  }
}
