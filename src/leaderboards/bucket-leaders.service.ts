import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { LeaderboardAccountsService } from '../accounts/leaderboard-accounts.service';
import { RANKED } from './account-boards';
import { BucketLeader, V1LeaderboardGetBucketLeadersRequestBody as Request } from './dto/bucket-leaders.dto';

/** Lower bounds of the game-collector badge levels, the buckets of the `apps` board. */
export const APP_THRESHOLDS = [1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000];

interface Bucket {
  from: number;
  to: number;
  open: boolean;
}

/** `leaderboard.getBucketLeaders`: the best account of each value bucket, with its rank on the whole board. */
@Injectable()
export class BucketLeadersService {
  constructor(
    private readonly accounts: LeaderboardAccountsService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async leaders(request: Request): Promise<BucketLeader[]> {
    const xpBoard = request.leaderboard === 'xp';
    const buckets = xpBoard ? await this.levelBuckets(request.bucketSize ?? 10) : this.appBuckets();
    // The bucket value (level, or app count) and the score the board ranks by (xp, or app count).
    const [value, score] = xpBoard ? ['a.level', 'a.xp'] : ['a.apps', 'a.apps'];
    const leaders: { bucket: number; account_id: number; score: number; rank: number }[] = await this.dataSource.query(
      `SELECT b.bucket, l.account_id, l.score,
              (SELECT count(*)::int + 1 FROM accounts a WHERE ${RANKED} AND (${score} > l.score OR (${score} = l.score AND a.account_id < l.account_id))) AS rank
         FROM unnest($1::int[], $2::int[]) WITH ORDINALITY AS b(low, high, bucket)
         CROSS JOIN LATERAL (
           SELECT a.account_id, ${score} AS score FROM accounts a
            WHERE ${RANKED} AND ${value} >= b.low AND ${value} <= b.high
            ORDER BY ${score} DESC, a.account_id LIMIT 1) l`,
      [buckets.map((b) => b.from), buckets.map((b) => (b.open ? 2147483647 : b.to))],
    );
    const cards = await this.accounts.byIds(leaders.map((leader) => leader.account_id));
    const byBucket = new Map(leaders.map((leader) => [Number(leader.bucket), leader]));
    return buckets.map((bucket, i) => {
      const leader = byBucket.get(i + 1);
      if (!leader) return { ...bucket, empty: true };
      return { ...bucket, empty: false, rank: leader.rank, score: leader.score, account: cards.get(leader.account_id) ?? null };
    });
  }

  /** Level buckets of `size` from 0 up to the highest level ranked; the last one is open. */
  private async levelBuckets(size: number): Promise<Bucket[]> {
    const [{ top }] = await this.dataSource.query(`SELECT COALESCE(max(a.level), 0)::int AS top FROM accounts a WHERE ${RANKED}`);
    const count = Math.floor(top / size) + 1;
    return Array.from({ length: Math.min(count, 1000) }, (_, i) => ({
      from: i * size,
      to: i * size + size - 1,
      open: i === Math.min(count, 1000) - 1,
    }));
  }

  private appBuckets(): Bucket[] {
    return APP_THRESHOLDS.map((from, i) => ({ from, to: (APP_THRESHOLDS[i + 1] ?? from) - 1, open: i === APP_THRESHOLDS.length - 1 }));
  }
}
