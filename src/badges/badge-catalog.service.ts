import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { idsForGenericPlan } from '../common/sql/generic-plan-ids';

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
  /** Cards in the app's set as the platform's market lists them; the distinct cards seen held until it was read. */
  cardCount: number;
  trackedHolders: number;
  highestLevel: number;
  firstCompletion: Date | null;
  lastCompletion: Date | null;
  /** The set price of the badge's cards (normal or foil) in USD cents, 0 until the pricing job read it. */
  price: number;
  /** Some card of the set has no market listing now. */
  noListing: boolean;
  /** Some card of the set is not traded on the market. */
  isNmc: boolean;
}

/**
 * A badge with its maintained holder statistics (`badge_holder_stats`, one row per badge), its app's card set
 * (`app_card_counts`, joined where the card count is read) and its set's market price
 * (`app_market_prices`, kept by the pricing job): no read aggregates the holdings.
 */
const SELECT_STATISTICS = `
  SELECT b.id, b.app_id AS "appId", b.platform_badge_id AS "platformBadgeId", b.is_foil AS "isFoil", b.name, b.image,
         b.base_level AS "baseLevel", b.base_xp AS "baseXp", b.is_event AS "isEvent", b.is_sale AS "isSale",
         b.scarcity::bigint AS scarcity, COALESCE(a.name, '') AS "appName", COALESCE(a.icon, '') AS "appIcon",
         COALESCE(s.holders, 0)::bigint AS "trackedHolders", COALESCE(s.highest_level, 0)::int AS "highestLevel",
         CASE WHEN s.holders > 0 THEN s.first_completion END AS "firstCompletion",
         CASE WHEN s.holders > 0 THEN s.last_completion END AS "lastCompletion",
         COALESCE(p.set_price, 0) AS price, COALESCE(p.unlisted_cards > 0, false) AS "noListing",
         COALESCE(p.unmarketable_cards > 0, false) AS "isNmc"`;

/**
 * The badge's `cardCount`: a key look-up of its app's set (`app_card_counts`, joined as `k`): the platform's count
 * (pricing/app-card-sets.service.ts), or the cards seen held until the platform was asked.
 */
export const CARD_COUNT_SQL = 'COALESCE(k.cards, k.classes, 0)';
const CARD_COUNT = `${CARD_COUNT_SQL} AS "cardCount"`;
const CARD_COUNT_JOIN = 'LEFT JOIN app_card_counts k ON k.app_id = b.app_id';

const JOINS = `
    LEFT JOIN apps a ON a.app_id = b.app_id
    LEFT JOIN badge_holder_stats s ON s.badge_id = b.id
    LEFT JOIN app_market_prices p ON p.app_id = b.app_id AND p.badge_type = CASE WHEN b.is_foil THEN 'foil' ELSE 'normal' END`;
const FROM = `FROM badges b ${JOINS}`;

/** Badges with at least one tracked holder: the rows of `leaderboard.listBadges`. */
const HELD = 'WHERE s.holders > 0';

/**
 * The version of the listed badges' state: how many rows, and the sum of a hash of each row's row versions
 * (`xmin`, the id of the transaction that wrote that version of the badge, its statistics, its app and its price).
 * Any committed write to a row the listing reads gives the row a new `xmin` (or adds or removes a row), so the
 * version changes with every change that can change the listing, and only with a write (up to 64-bit hash
 * collisions). It costs one pass over the listed rows' joins, without formatting any of them (~1 ms at 860 badges).
 */
const VERSION_HASH = 'hash_record_extended((b.xmin, s.xmin, a.xmin, p.xmin), 0)';

/** The version of an empty listing. */
const EMPTY_VERSION = '0';

/** A badge as listed with holders: what `withHolders` reads (no card count: the listing does not show it). */
export type HeldBadge = Omit<BadgeStatistics, 'cardCount'>;

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
export function commonBadgeFields(badge: HeldBadge) {
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
    // Deprecated on the wire, still served: what the badge's card set costs on the market now (src/pricing).
    price: badge.price,
  };
}

/** The rows as read, their bigint counts made numbers in place (the rows are this read's own; see toAppBadge on spreads). */
function parse<T extends HeldBadge = BadgeStatistics>(rows: Record<string, unknown>[]): T[] {
  for (const row of rows) {
    row.scarcity = Number(row.scarcity);
    row.trackedHolders = Number(row.trackedHolders);
  }
  return rows as T[];
}

/** Reads badge definitions together with their maintained holder statistics. */
@Injectable()
export class BadgeCatalogService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The badges of one app (normal and foil), through `ix_badges_app_id`. */
  async forApp(appId: number): Promise<BadgeStatistics[]> {
    return parse(
      await this.dataSource.query(
        `${SELECT_STATISTICS}, ${CARD_COUNT} ${FROM} ${CARD_COUNT_JOIN} WHERE b.app_id = $1 ORDER BY b.is_foil, b.id`,
        [appId],
      ),
    );
  }

  /** The given badges, in no particular order, through the primary keys. */
  async byIds(ids: number[]): Promise<BadgeStatistics[]> {
    if (!ids.length) return [];
    return parse(
      await this.dataSource.query(`${SELECT_STATISTICS}, ${CARD_COUNT} ${FROM} ${CARD_COUNT_JOIN} WHERE b.id = ANY($1) ORDER BY b.id`, [
        idsForGenericPlan(ids),
      ]),
    );
  }

  /**
   * Holdings with their badges in one statement, as one JSON array text (`'[' … ']'`) of `itemText` per holding:
   * `holdings` selects `account_badges` rows (a page of them: the statistics are joined to its rows only), read as
   * `ab`; `order` sorts them again (as the page was); `itemText` and `order` read `ab`, `b`, `a`, `s`, `p` and `k`;
   * `columns` adds scalar subqueries, read once. One row even for an empty page, so a total is always read.
   * Each holding's badge is looked up by its key (a lateral subquery kept apart by `OFFSET 0`): joined plainly, the
   * planner hashed the whole badge catalogue (858 rows) for a page of 20, a third more of the statement's CPU.
   */
  async holdingsAsText<T extends object>(
    holdings: string,
    itemText: string,
    columns: string,
    order: string,
    parameters: unknown[],
  ): Promise<{ text: string } & T> {
    const [row]: ({ text: string } & T)[] = await this.dataSource.query(
      `SELECT '[' || COALESCE(string_agg(${itemText}, ',' ORDER BY ${order}), '') || ']' AS text, ${columns}
         FROM (${holdings}) ab CROSS JOIN LATERAL (SELECT * FROM badges b WHERE b.id = ab.badge_id OFFSET 0) b
              ${JOINS} ${CARD_COUNT_JOIN}`,
      parameters,
    );
    return row;
  }

  /** The badge of the first of these badge keys that exists (by app id, special badges last), with its statistics. */
  async firstByKey(keys: string[]): Promise<HeldBadge | null> {
    const [row]: Record<string, unknown>[] = await this.dataSource.query(
      `${SELECT_STATISTICS} ${FROM} WHERE b.badge_key = ANY($1) ORDER BY b.app_id NULLS LAST LIMIT 1`,
      [keys],
    );
    return row ? parse<HeldBadge>([row])[0] : null;
  }

  /**
   * Every badge with at least one tracked holder (one row per badge of the statistics table), with the
   * `holdersVersion` of the same snapshot.
   */
  async withHolders(): Promise<{ version: string; badges: HeldBadge[] }> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `${SELECT_STATISTICS}, count(*) OVER () || '/' || sum(${VERSION_HASH}) OVER () AS "listingVersion" ${FROM} ${HELD}
        ORDER BY b.app_id NULLS FIRST, b.is_foil, b.id`,
    );
    const version = rows.length ? String(rows[0].listingVersion) : EMPTY_VERSION;
    return { version, badges: parse<HeldBadge>(rows) };
  }

  /** The version of what `withHolders` would read now (see VERSION_HASH): equal versions, equal listings. */
  async holdersVersion(): Promise<string> {
    const [row]: { version: string }[] = await this.dataSource.query(
      `SELECT CASE WHEN count(*) = 0 THEN '${EMPTY_VERSION}' ELSE count(*) || '/' || sum(${VERSION_HASH}) END AS version ${FROM} ${HELD}`,
    );
    return row.version;
  }

  async appExists(appId: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query('SELECT 1 FROM apps WHERE app_id = $1', [appId]);
    return rows.length > 0;
  }
}
