import { FALLERS_DEPTH } from '../../src/leaderboards/changes/change-snapshot-computer';

/**
 * leaderboard.getChanges recomputed from the base tables in one query (the per-request computation the service no
 * longer does), with the rank engine's rules: every refreshed account holds a rank (hidden ones too), ties go to
 * the lower account id, and a score of 0 is unranked: rank 0, in no top N, and the place after the board's last ranked
 * account for the rank change (rankDelta). Hidden accounts are not listed. Besides the
 * movers, the accounts whose rank others moved (not refreshed in the window, scoring above 0) are listed within the
 * board's first FALLERS_DEPTH places.
 * Parameters: $1 the update counter, $2 the window start, $3 top N (or null), $4 limit, $5 offset.
 */
export function changesReferenceSql(column: string, metric: 'score' | 'rank', direction: 'improvements' | 'declines'): string {
  const delta = metric === 'score' ? 'new_score - old_score' : 'old_rank - new_rank';
  const wanted = direction === 'improvements' ? `${delta} > 0` : `${delta} < 0`;
  return `
    WITH firsts AS (
      SELECT DISTINCT ON (u.account_id) u.account_id, (u.before ->> $1)::bigint AS old_score
        FROM account_updates u
       WHERE u.status = 'completed' AND u.finished_at >= $2
         AND EXISTS (SELECT 1 FROM account_updates p WHERE p.account_id = u.account_id AND p.status = 'completed' AND p.finished_at < u.finished_at)
       ORDER BY u.account_id, u.finished_at),
    latest AS (
      SELECT account_id, max(finished_at) AS latest FROM account_updates WHERE status = 'completed' GROUP BY account_id),
    board AS (
      SELECT a.account_id, a.${column}::bigint AS new_score, COALESCE(f.old_score, a.${column})::bigint AS old_score,
             f.account_id IS NOT NULL AS moved, l.latest,
             EXISTS (SELECT 1 FROM account_settings s WHERE s.account_id = a.account_id AND s.hidden) AS hidden
        FROM accounts a LEFT JOIN firsts f ON f.account_id = a.account_id LEFT JOIN latest l ON l.account_id = a.account_id
       WHERE a.updated_at IS NOT NULL),
    ranked AS (
      SELECT *,
             CASE WHEN new_score > 0 THEN row_number() OVER (ORDER BY new_score DESC, account_id)
                  ELSE (SELECT count(*) FROM board WHERE new_score > 0) + 1 END AS new_rank,
             CASE WHEN old_score > 0 THEN row_number() OVER (ORDER BY old_score DESC, account_id)
                  ELSE (SELECT count(*) FROM board WHERE old_score > 0) + 1 END AS old_rank
        FROM board)
    SELECT account_id AS "accountId", CASE WHEN old_score > 0 THEN old_rank ELSE 0 END::int AS "oldRank",
           CASE WHEN new_score > 0 THEN new_rank ELSE 0 END::int AS "newRank", (old_rank - new_rank)::int AS "rankDelta",
           old_score::int AS "oldScore", new_score::int AS "newScore", latest
      FROM ranked
     WHERE (moved OR (new_score > 0 AND new_rank <= ${FALLERS_DEPTH})) AND NOT hidden AND ${wanted}
       AND ($3::int IS NULL OR (new_score > 0 AND new_rank <= $3) OR (old_score > 0 AND old_rank <= $3))
     ORDER BY abs(${delta}) DESC, account_id
     LIMIT $4 OFFSET $5`;
}
