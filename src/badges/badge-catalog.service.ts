import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** A badge definition with what the service knows of its holders, computed from stored account badges. */
export interface BadgeStatistics {
  id: number;
  appId: number | null;
  platformBadgeId: number;
  isFoil: boolean;
  name: string;
  image: string;
  baseLevel: number;
  baseXp: number;
  isEvent: boolean;
  isSale: boolean;
  scarcity: number;
  appName: string;
  appIcon: string;
  /** Distinct normal cards of the app seen in tracked inventories (the Web API does not publish the set size). */
  cardCount: number;
  trackedHolders: number;
  highestLevel: number;
  firstCompletion: Date | null;
  lastCompletion: Date | null;
}

const SELECT_STATISTICS = `
  SELECT b.id, b.app_id AS "appId", b.platform_badge_id AS "platformBadgeId", b.is_foil AS "isFoil", b.name, b.image,
         b.base_level AS "baseLevel", b.base_xp AS "baseXp", b.is_event AS "isEvent", b.is_sale AS "isSale",
         b.scarcity::bigint AS scarcity, COALESCE(a.name, '') AS "appName", COALESCE(a.icon, '') AS "appIcon",
         COALESCE(c.card_count, 0)::int AS "cardCount", COALESCE(s.holders, 0)::bigint AS "trackedHolders",
         COALESCE(s.highest_level, 0)::int AS "highestLevel", s.first_completion AS "firstCompletion",
         s.last_completion AS "lastCompletion"
    FROM badges b
    LEFT JOIN apps a ON a.app_id = b.app_id`;

/** The public id of a badge. */
export function publicBadgeId(id: number): string {
  return `bdg_${id}`;
}

/** The display name: a curated name when one is stored, otherwise derived from the app or the special id. */
export function badgeName(badge: Pick<BadgeStatistics, 'name' | 'appId' | 'appName' | 'isFoil' | 'platformBadgeId'>): string {
  if (badge.name) return badge.name;
  if (badge.appId === null) return `Community badge #${badge.platformBadgeId}`;
  const app = badge.appName || `App ${badge.appId}`;
  return `${app} ${badge.isFoil ? 'Foil Badge' : 'Badge'}`;
}

/** The wire fields every badge record shares (`V1AppBadge`, `V1LeaderboardBadge`). */
export function commonBadgeFields(badge: BadgeStatistics) {
  return {
    badgeId: publicBadgeId(badge.id),
    steamId: badge.platformBadgeId,
    name: badgeName(badge),
    appId: badge.appId ?? 0,
    appName: badge.appName,
    appImage: badge.appIcon,
    highestLevel: badge.highestLevel,
    scarcity: badge.scarcity,
    trackedHolders: badge.trackedHolders,
    firstCompletion: badge.firstCompletion?.toISOString() ?? null,
    lastCompletion: badge.lastCompletion?.toISOString() ?? null,
    isEvent: badge.isEvent,
    isFoil: badge.isFoil,
    isSale: badge.isSale,
    // Deprecated; the service keeps no price history.
    price: 0,
  };
}

function parse(rows: Record<string, unknown>[]): BadgeStatistics[] {
  return rows.map((row) => ({ ...row, scarcity: Number(row.scarcity), trackedHolders: Number(row.trackedHolders) }) as BadgeStatistics);
}

/** Reads badge definitions together with holder statistics. */
@Injectable()
export class BadgeCatalogService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The badges of one app (normal and foil). */
  forApp(appId: number): Promise<BadgeStatistics[]> {
    return this.lateral('b.app_id = $1', [appId], 'b.is_foil, b.id');
  }

  /** The given badges, in no particular order. */
  byIds(ids: number[]): Promise<BadgeStatistics[]> {
    return ids.length ? this.lateral('b.id = ANY($1)', [ids], 'b.id') : Promise.resolve([]);
  }

  /** A few badges with their statistics computed one by one through the holder index. */
  private async lateral(where: string, parameters: unknown[], orderBy: string): Promise<BadgeStatistics[]> {
    const rows = await this.dataSource.query(
      `${SELECT_STATISTICS}
       LEFT JOIN LATERAL (
         SELECT count(*) AS holders, max(level) AS highest_level, min(completion_time) AS first_completion,
                max(completion_time) AS last_completion
           FROM account_badges ab WHERE ab.badge_id = b.id) s ON true
       LEFT JOIN LATERAL (
         SELECT count(DISTINCT class_id) AS card_count FROM inventory_items i WHERE i.app_id = b.app_id AND i.kind = 'card') c ON true
       WHERE ${where}
       ORDER BY ${orderBy}`,
      parameters,
    );
    return parse(rows);
  }

  /** Every badge with at least one tracked holder, in one pass over the holdings. */
  async withHolders(): Promise<BadgeStatistics[]> {
    const rows = await this.dataSource.query(
      `WITH s AS (
         SELECT badge_id, count(*) AS holders, max(level) AS highest_level, min(completion_time) AS first_completion,
                max(completion_time) AS last_completion
           FROM account_badges GROUP BY badge_id),
       c AS (SELECT app_id, count(DISTINCT class_id) AS card_count FROM inventory_items WHERE kind = 'card' GROUP BY app_id)
       ${SELECT_STATISTICS.replace('FROM badges b', 'FROM badges b JOIN s ON s.badge_id = b.id')}
       LEFT JOIN c ON c.app_id = b.app_id
       ORDER BY b.app_id NULLS FIRST, b.is_foil, b.id`,
    );
    return parse(rows);
  }

  async appExists(appId: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query('SELECT 1 FROM apps WHERE app_id = $1', [appId]);
    return rows.length > 0;
  }
}
