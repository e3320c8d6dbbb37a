import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { RankEngine } from '../ranks/rank-engine.service';
import { ChangeFeed } from '../change-feed/change-feed';
import { V1DonateGoal } from './dto/donate-goal.dto';

const MAX_SUPPORTERS = 48;

/** Donations (recorded by operators) and the month's progress toward the configured goal. */
@Injectable()
export class DonationsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly ranks: RankEngine,
    private readonly feed: ChangeFeed,
  ) {}

  /**
   * Records a donation; an account's total (`donated`, its card, its donor tier: account-records/donor-tiers.ts) grows
   * with it, and the account moves on the donations board at once (the rank engine places its committed row, as after
   * an update, and the replicas hear of it), so the board, `account.getInfo` and `leaderboard.previewAccountRank`
   * agree from the moment it is recorded. An account never refreshed is on no board yet: it is placed by its first update.
   */
  async record(cents: number, accountId: number | null, at = new Date()): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query('INSERT INTO donations (account_id, cents, donated_at) VALUES ($1, $2, $3)', [accountId, cents, at]);
      if (accountId === null) return;
      await manager.query('UPDATE accounts SET donated = donated + $2 WHERE account_id = $1', [accountId, cents]);
      await this.feed.record(manager, { kind: 'donation', accountIds: [accountId], payload: { cents } });
    });
    if (accountId === null) return;
    await this.ranks.place([accountId]);
    await this.feed.nudge([accountId]);
  }

  async goal(now = new Date()): Promise<V1DonateGoal> {
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    const [[totals], supporters] = await Promise.all([
      this.dataSource.query(
        `SELECT COALESCE(sum(cents), 0)::int AS raised, count(DISTINCT account_id)::int AS accounts,
                count(*) FILTER (WHERE account_id IS NULL)::int AS anonymous
           FROM donations WHERE donated_at >= $1 AND donated_at < $2`,
        [start, end],
      ) as Promise<{ raised: number; accounts: number; anonymous: number }[]>,
      this.dataSource.query(
        `SELECT d.account_id AS "accountId", a.name, a.avatar, a.site_vanity AS vanity, sum(d.cents)::int AS "monthCents"
           FROM donations d JOIN accounts a ON a.account_id = d.account_id
          WHERE d.donated_at >= $1 AND d.donated_at < $2
          GROUP BY d.account_id, a.name, a.avatar, a.site_vanity
          ORDER BY max(d.donated_at) DESC, d.account_id LIMIT ${MAX_SUPPORTERS}`,
        [start, end],
      ),
    ]);
    return {
      month: start.toISOString().slice(0, 7),
      goalCents: this.config.donationGoalCents,
      raisedCents: totals.raised,
      supporterCount: totals.accounts + totals.anonymous,
      anonymousCount: totals.anonymous,
      supporters,
    };
  }
}
