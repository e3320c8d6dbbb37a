import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { LeaderboardAccountsService } from '../accounts/leaderboard-accounts.service';
import { RankReader } from '../ranks/rank-reader.service';
import { BucketLeader, V1LeaderboardGetBucketLeadersRequestBody as Request } from './dto/bucket-leaders.dto';
import { VALUE_BOARDS, ValueBoard } from './value-leaders/value-leaders.service';

/** Lower bounds of the game-collector badge levels, the buckets of the `apps` board. */
export const APP_THRESHOLDS = [1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000];

interface Bucket {
  from: number;
  to: number;
  open: boolean;
}

interface Leader {
  account_id: number;
  score: number;
}

const NOT_HIDDEN = 'NOT EXISTS (SELECT 1 FROM account_settings s WHERE s.account_id = l.account_id AND s.hidden)';

/**
 * `leaderboard.getBucketLeaders`: the best ranked (refreshed, not hidden) account of each value bucket, with its
 * rank on the whole board. Leaders come from the maintained per-value leaders (`board_value_leaders`, a range of
 * its primary key per bucket); ranks from the rank engine (O(log N) each).
 */
@Injectable()
export class BucketLeadersService {
  constructor(
    private readonly accounts: LeaderboardAccountsService,
    private readonly ranks: RankReader,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async leaders(request: Request): Promise<BucketLeader[]> {
    const board: ValueBoard = request.leaderboard;
    const buckets = board === 'xp' ? await this.levelBuckets(request.bucketSize ?? 10) : this.appBuckets();
    const scope = await this.ranks.scope(VALUE_BOARDS[board].score, null);
    const leaders = await this.bestPerBucket(board, buckets);
    const ranks = await Promise.all(leaders.map((leader) => (leader ? this.ranks.rankOf(scope, leader.account_id, leader.score) : 0)));
    const cards = await this.accounts.byIds(
      leaders.filter((leader): leader is Leader => leader !== null).map((leader) => leader.account_id),
    );
    return buckets.map((bucket, i) => {
      const leader = leaders[i];
      if (!leader) return { ...bucket, empty: true };
      return { ...bucket, empty: false, rank: ranks[i], score: leader.score, account: cards.get(leader.account_id) ?? null };
    });
  }

  /** Each bucket's best per-value leader, in one statement: a range of the leaders' primary key per bucket. */
  private async bestPerBucket(board: ValueBoard, buckets: Bucket[]): Promise<(Leader | null)[]> {
    const rows: (Leader & { bucket: string; visible: boolean })[] = await this.dataSource.query(
      `SELECT b.bucket, l.account_id, l.score, ${NOT_HIDDEN} AS visible
         FROM unnest($2::int[], $3::int[]) WITH ORDINALITY AS b(low, high, bucket)
         CROSS JOIN LATERAL (
           SELECT l.account_id, l.score FROM board_value_leaders l
            WHERE l.board = $1 AND l.value BETWEEN b.low AND b.high ORDER BY l.score DESC, l.account_id LIMIT 1) l`,
      [board, buckets.map((b) => b.from), buckets.map((b) => (b.open ? 2147483647 : b.to))],
    );
    const byBucket = new Map(rows.map((row) => [Number(row.bucket) - 1, row]));
    return Promise.all(
      buckets.map(async (bucket, i) => {
        const best = byBucket.get(i);
        if (!best) return null;
        return best.visible ? { account_id: best.account_id, score: best.score } : this.bestVisible(board, bucket);
      }),
    );
  }

  /**
   * A bucket whose leader chose to be hidden (rare): the best visible account of each value in it, through the
   * accounts' partial (value, score) index.
   */
  private async bestVisible(board: ValueBoard, bucket: Bucket): Promise<Leader | null> {
    const { value, score } = VALUE_BOARDS[board];
    const [visible]: Leader[] = await this.dataSource.query(
      `SELECT c.account_id, c.score FROM board_value_leaders v
        CROSS JOIN LATERAL (
          SELECT l.account_id, l.${score} AS score FROM accounts l
           WHERE l.${value} = v.value AND l.updated_at IS NOT NULL AND ${NOT_HIDDEN}
           ORDER BY l.${score} DESC, l.account_id LIMIT 1) c
        WHERE v.board = $1 AND v.value BETWEEN $2 AND $3 ORDER BY c.score DESC, c.account_id LIMIT 1`,
      [board, bucket.from, bucket.open ? 2147483647 : bucket.to],
    );
    return visible ?? null;
  }

  /** Level buckets of `size` from 0 up to the highest level a visible ranked account has; the last one is open. */
  private async levelBuckets(size: number): Promise<Bucket[]> {
    const [top]: { value: number }[] = await this.dataSource.query(
      `SELECT v.value FROM board_value_leaders v
        WHERE v.board = 'xp'
          AND EXISTS (SELECT 1 FROM accounts l WHERE l.level = v.value AND l.updated_at IS NOT NULL AND ${NOT_HIDDEN})
        ORDER BY v.value DESC LIMIT 1`,
    );
    const count = Math.floor((top?.value ?? 0) / size) + 1;
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
