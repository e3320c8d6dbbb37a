import { EntityManager } from 'typeorm';

/** How likely a tag fits a badge: the share (0–1) of the same app's other badges that carry it. */
export interface TagSuggestion {
  id: string;
  kind: 'color' | 'design';
  share: number;
}

/**
 * Suggested colours and designs of badges, from their siblings: an app's badges (its levels' art, the normal and the
 * foil badge) share a palette and motifs, so a tag carried by the app's other badges is offered with the share of
 * them that carry it, most common first. A special badge (no app) has no siblings and no suggestion. One query for
 * the batch, through `ix_badges_app_id` and `badge_tags`' primary key.
 */
export async function suggestTags(manager: EntityManager, badgeIds: number[]): Promise<Map<number, TagSuggestion[]>> {
  const rows: { badge_id: number; id: string; kind: 'color' | 'design'; share: number }[] = await manager.query(
    `WITH wanted AS (
       SELECT b.id, b.app_id, (SELECT count(*) FROM badges s WHERE s.app_id = b.app_id AND s.id <> b.id) AS siblings
         FROM badges b WHERE b.id = ANY($1::int[]) AND b.app_id IS NOT NULL)
     SELECT w.id AS badge_id, t.id, t.kind, (count(*)::float8 / w.siblings) AS share
       FROM wanted w
       JOIN badges s ON s.app_id = w.app_id AND s.id <> w.id
       JOIN badge_tags bt ON bt.badge_id = s.id
       JOIN tags t ON t.id = bt.tag_id AND t.kind IN ('color', 'design')
      GROUP BY w.id, w.siblings, t.id, t.kind
      ORDER BY w.id, share DESC, t.id`,
    [badgeIds],
  );
  const byBadge = new Map<number, TagSuggestion[]>();
  for (const row of rows) {
    const list = byBadge.get(row.badge_id) ?? [];
    list.push({ id: row.id, kind: row.kind, share: Math.round(row.share * 1000) / 1000 });
    byBadge.set(row.badge_id, list);
  }
  return byBadge;
}
