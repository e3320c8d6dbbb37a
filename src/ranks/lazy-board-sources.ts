/**
 * The boards that are kept only while people look at them (see LazyBoards): per-app playtime and per-badge
 * boards. Each has a source query over one app's or badge's rows and a score whose descending order, then the
 * lower account id, is the board's order — so the same sorted-set reads serve them as the column boards.
 */
export const LAZY_KINDS = ['app', 'badge_completion_time', 'badge_highest_level'] as const;
export type LazyKind = (typeof LAZY_KINDS)[number];

/** 2^32: badge levels are packed above the completion time (seconds, which fit 32 bits until 2106). */
const TIME_SPAN = 4_294_967_296;

interface LazySource {
  /** Rows of one board: `account_id` and `score`, for the app or badge `$1`, refreshed accounts only. */
  sql: string;
  /** The same rows of one account (`$1`) for several apps or badges (`$2`): what an update re-places. */
  accountSql: string;
}

const COMPLETION = 'extract(epoch FROM x.completion_time)::bigint';

const SCORES: Record<LazyKind, string> = {
  app: 'x.playtime',
  // Earliest first: the negated completion time.
  badge_completion_time: `-${COMPLETION}`,
  // Highest level first, then earliest completion.
  badge_highest_level: `x.level::bigint * ${TIME_SPAN} + (${TIME_SPAN - 1} - ${COMPLETION})`,
};

function source(kind: LazyKind): LazySource {
  const [table, key] = kind === 'app' ? ['account_apps', 'app_id'] : ['account_badges', 'badge_id'];
  return {
    sql: `SELECT x.account_id, ${SCORES[kind]} AS score FROM ${table} x JOIN accounts a ON a.account_id = x.account_id
           WHERE x.${key} = $1 AND a.updated_at IS NOT NULL`,
    accountSql: `SELECT x.${key} AS id, ${SCORES[kind]} AS score FROM ${table} x WHERE x.account_id = $1 AND x.${key} = ANY($2)`,
  };
}

export const LAZY_SOURCES: Record<LazyKind, LazySource> = {
  app: source('app'),
  badge_completion_time: source('badge_completion_time'),
  badge_highest_level: source('badge_highest_level'),
};
