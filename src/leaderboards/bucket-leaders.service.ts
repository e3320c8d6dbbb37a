import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { LeaderboardAccountsService } from '../account-records/cards/leaderboard-accounts.service';
import { CARD_VALUES, CardValues, cardOf, cardRoles } from '../account-records/cards/card-values';
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
  /** The card when the leader came with it (CardValues). */
  card?: CardValues | null;
}

/** A bucket's row: its leader when it has one (null columns otherwise); `count` is the number of level buckets. */
interface BucketRow {
  bucket: string;
  count: number;
  account_id: number | null;
  score: number | null;
  visible: boolean | null;
  card: CardValues | null;
}

const NOT_HIDDEN = 'NOT EXISTS (SELECT 1 FROM account_settings s WHERE s.account_id = l.account_id AND s.hidden)';

/**
 * `leaderboard.getBucketLeaders`: the best ranked (refreshed, not hidden) account of each value bucket, with its
 * rank on the whole board. Leaders come from the maintained per-value leaders (`board_value_leaders`, a range of
 * its primary key per bucket) with their cards, in one statement; ranks from the rank engine, in one script
 * (O(log N) each).
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
    const { buckets, rows } = await this.bestPerBucket(board, request.bucketSize ?? 10);
    const leaders = await Promise.all(
      buckets.map(async (bucket, i): Promise<Leader | null> => {
        const best = rows[i];
        if (best.account_id === null) return null;
        return best.visible ? { account_id: best.account_id, score: best.score!, card: best.card } : this.bestVisible(board, bucket);
      }),
    );
    // Leaders found past a hidden one (rare) come without their card.
    const missing = leaders.filter((leader): leader is Leader => leader !== null && !leader.card).map((leader) => leader.account_id);
    const [ranks, cards] = await Promise.all([
      this.ranks.globalRanks(
        VALUE_BOARDS[board].score,
        leaders.map((leader) => leader && { accountId: leader.account_id, score: leader.score }),
      ),
      this.accounts.byIds(missing),
    ]);
    return buckets.map((bucket, i) => {
      const leader = leaders[i];
      if (!leader) return Object.assign({}, bucket, { empty: true });
      const account = leader.card ? cardOf(leader.card) : (cards.get(leader.account_id) ?? null);
      return Object.assign({}, bucket, { empty: false, rank: ranks[i], score: leader.score, account });
    });
  }

  /**
   * Each bucket's best per-value leader and its card, in one statement: for `xp` the level buckets of `size` from 0
   * up to the highest level a visible ranked account has (at most 1000; the last one is open), for `apps` the
   * game-collector thresholds; then a range of the leaders' primary key per bucket.
   */
  private async bestPerBucket(board: ValueBoard, size: number): Promise<{ buckets: Bucket[]; rows: BucketRow[] }> {
    const fixed = board === 'xp' ? null : appBuckets();
    const rows: BucketRow[] = await this.dataSource.query(
      `WITH top AS (
         SELECT LEAST(COALESCE((
           SELECT v.value FROM board_value_leaders v
            WHERE v.board = 'xp'
              AND EXISTS (SELECT 1 FROM accounts l WHERE l.level = v.value AND l.updated_at IS NOT NULL AND ${NOT_HIDDEN})
            ORDER BY v.value DESC LIMIT 1), 0) / $4::int + 1, 1000) AS count
          WHERE $2::int[] IS NULL),
       buckets AS (
         SELECT b.bucket, b.low, b.high, 0 AS count FROM unnest($2::int[], $3::int[]) WITH ORDINALITY AS b(low, high, bucket)
         UNION ALL
         SELECT n.i + 1, n.i * $4::int, CASE WHEN n.i = top.count - 1 THEN 2147483647 ELSE n.i * $4::int + $4::int - 1 END, top.count
           FROM top CROSS JOIN LATERAL generate_series(0, top.count - 1) AS n(i))
       SELECT b.bucket, b.count, l.account_id, l.score, ${NOT_HIDDEN} AS visible,
              (SELECT ${CARD_VALUES} FROM accounts a ${cardRoles('r.account_id = l.account_id')} WHERE a.account_id = l.account_id) AS card
         FROM buckets b
         LEFT JOIN LATERAL (
           SELECT l.account_id, l.score FROM board_value_leaders l
            WHERE l.board = $1 AND l.value BETWEEN b.low AND b.high ORDER BY l.score DESC, l.account_id LIMIT 1) l ON true
        ORDER BY b.bucket`,
      [board, fixed?.map((b) => b.from) ?? null, fixed?.map((b) => (b.open ? 2147483647 : b.to)) ?? null, size],
    );
    return { buckets: fixed ?? levelBuckets(size, rows[0].count), rows };
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
}

/** `count` level buckets of `size` from 0; the last one is open. */
function levelBuckets(size: number, count: number): Bucket[] {
  return Array.from({ length: count }, (_, i) => ({ from: i * size, to: i * size + size - 1, open: i === count - 1 }));
}

function appBuckets(): Bucket[] {
  return APP_THRESHOLDS.map((from, i) => ({ from, to: (APP_THRESHOLDS[i + 1] ?? from) - 1, open: i === APP_THRESHOLDS.length - 1 }));
}
