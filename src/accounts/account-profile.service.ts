import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { AccountLookupService, AccountSelector, notTracked } from '../account-records/account-lookup.service';
import { V1AccountGetInfoResponseBody } from './dto/account-profile.dto';
import { V1AccountBadgeStats } from './dto/badge-stats.dto';
import { V1AccountUpdateProgressResponseBody } from './dto/update-progress.dto';
import { AccountUpdateEntity } from '../account-records/entities/account-update.entity';
import { scarcityBucket } from './mappers/badge-stats.mapper';
import { UpdateProgressService } from '../account-records/progress/update-progress.service';
import { AccountViewsService } from './views/account-views.service';
import { SearchTrendsService } from '../search/search-trends.service';
import { JsonLogger } from '../common/logging/json-logger';
import { AccountRankReader } from '../ranks/account-rank-reader.service';
import { BadgePriceBook } from '../pricing/badge-price-book';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { schemaLink, RenderedJson } from '../common/wire/rendered-json';
import { CardReplica } from '../account-records/card-replica/card-replica.service';
import { cardTokensVersion } from '../account-records/card-replica/card-tokens';
import { ProfileBatches } from './profile-batches';
import { intsOf, profileRanksText, profileText, recordTextOfRow, recordTextOfTokens } from './mappers/profile-text';

/** Reads of one account: profile, badge statistics, update progress. */
@Injectable()
export class AccountProfileService {
  private readonly logger = new JsonLogger('AccountProfileService');
  private readonly schemaLink: string;
  private readonly populatedBoardMin: number;

  constructor(
    private readonly lookup: AccountLookupService,
    private readonly progress: UpdateProgressService,
    private readonly views: AccountViewsService,
    private readonly searches: SearchTrendsService,
    @InjectRepository(AccountUpdateEntity) private readonly runs: Repository<AccountUpdateEntity>,
    private readonly ranks: AccountRankReader,
    private readonly prices: BadgePriceBook,
    private readonly cards: CardReplica,
    private readonly profiles: ProfileBatches,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.schemaLink = schemaLink(config.publicBaseUrl, V1AccountGetInfoResponseBody.name);
    this.populatedBoardMin = config.populatedBoardMinAccounts;
  }

  /**
   * The profile as its answer's bytes (profile-text.ts); a `visitor` (see AccountViewsService.visitor) counts as one
   * view of it. One statement for the profile's text with its extras and badges (shared with the profiles asked in the
   * same turn: profile-batches.ts), told which version of the account row the process's card replica holds: at that
   * version the record's part is written from the replica's texts.
   * The live ranks from this process's rank replica (ranks/replica), or while it is not serving from one Redis script
   * sent beside the statement (it needs nothing from the row); the badges are priced from the process's price book.
   */
  async getInfo(selector: AccountSelector, visitor?: string): Promise<RenderedJson> {
    // By id the statement itself proves the account is stored; a vanity is looked up first.
    const accountId = this.lookup.namedId(selector) ?? (await this.lookup.findTracked(selector)).accountId;
    // As held now: the statement checks their version against the row it reads, so no change heard need be awaited.
    const tokens = this.cards.heldTokens(accountId);
    // Sent together, statement and script cost one round trip's wait rather than two in a row (docs/performance-history.md,
    // "the profile's ranks sent beside"); from the replica the ranks cost no round trip at all.
    const [row, current] = await Promise.all([
      this.profiles.read(accountId, tokens === null ? '' : cardTokensVersion(tokens)),
      this.ranks.columnRanks(accountId),
    ]);
    if (!row) throw notTracked();
    // Counting the view (and a vanity look-up as a search) must neither delay nor fail the profile.
    if (visitor) void this.countVisit(accountId, visitor, selector.vanity?.value);
    const record = recordTextOfRow(row) ?? recordTextOfTokens(tokens!);
    const costs = await this.prices.costsOf(intsOf(row.badge_ids), intsOf(row.badge_levels));
    const ranks = profileRanksText(row.refreshed ? current : null, row.best, this.populatedBoardMin);
    return new RenderedJson(profileText(this.schemaLink, record, row, costs, ranks));
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
