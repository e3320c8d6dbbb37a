import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { unprocessable } from '../../common/problem/problem.exception';
import { INT32_MAX } from '../../common/wire/bounds';
import { decodeCursor, encodeCursor } from '../../common/wire/cursor';
import { BADGE_TYPES, BadgeType } from '../entities/app-market-price.entity';
import {
  BadgeListCheapestRequestBody,
  BadgeListCheapestResponseBody,
  CHEAPEST_DEFAULT_LIMIT,
  CheapestBadge,
} from '../dto/list-cheapest.dto';

/** Xp a game badge level gives, normal or foil (the platform's badge facts; the simulator's badges.ts). */
export const XP_PER_LEVEL = 100;
const MAX_LEVEL: Record<BadgeType, number> = { normal: 5, foil: 1 };

interface Row {
  app_id: number;
  badge_type: BadgeType;
  cards: number;
  set_price: number;
  average_volume: number;
  app_name: string | null;
  prices_as_of: Date | null;
}

/**
 * One side's cheapest full sets after the cursor: a range of `ix_app_market_prices_full_sets` (badge type, set
 * price, app id; only sets whose every card is listed), so a page reads `limit` index entries whatever the
 * catalogue's size. `(set_price, app_id) >= cursor` is the index's range (the first page's cursor is (-1, 0)); the
 * row at the cursor itself is left out by the side's tie-break (foil before normal). With an app, the primary key.
 */
function side(n: number, byApp: boolean): string {
  return `(SELECT app_id, badge_type, cards, set_price, average_volume FROM app_market_prices
     WHERE badge_type = $${n} AND unlisted_cards = 0 AND cards > 0 AND set_price BETWEEN $1 AND $2
       AND ${byApp ? 'app_id = $6' : '$6::int IS NULL'}
       AND (set_price, app_id) >= ($3, $4) AND NOT (set_price = $3 AND app_id = $4 AND badge_type <= $5)
     ORDER BY set_price, app_id LIMIT $${n + 1})`;
}

/**
 * # Cheapest badges (`badge.listCheapest`)
 *
 * The catalogue's game badges by what one full set of their cards costs now, from each card's own quote: the
 * pricing job stores a set's figures (`app_market_prices`) and its cards' quotes (`card_market_prices`) from the
 * same market calls in one transaction, so a set's `set_price` is the sum of its cards' lowest listings. A set with
 * a card nobody lists cannot be bought whole now and is not listed (the index holds only fully listed sets); a
 * card's price is as old as its quote, and each entry says when the oldest of its set's quotes was read.
 */
@Injectable()
export class CheapestBadgesService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(request: BadgeListCheapestRequestBody): Promise<BadgeListCheapestResponseBody> {
    const after = request.cursor ? decodeCursor(request.cursor, ['int32', 'int32', 'int32']) : null;
    if (after && !BADGE_TYPES[after[2]])
      throw unprocessable('The cursor is not one this service issued.', [
        { location: 'body.cursor', message: 'invalid cursor', value: request.cursor },
      ]);
    const min = request.minSetCost ?? 0;
    const max = request.maxSetCost ?? INT32_MAX;
    if (min > max)
      throw unprocessable('minSetCost is above maxSetCost.', [
        { location: 'body.minSetCost', message: 'must not exceed maxSetCost', value: min },
      ]);
    const limit = request.limit ?? CHEAPEST_DEFAULT_LIMIT;
    // Foil sorts before normal on a tie, as the text does.
    const types = request.badgeType ? [request.badgeType] : [...BADGE_TYPES].sort();
    const byApp = request.appId !== undefined;
    const parameters: unknown[] = [
      min,
      max,
      after?.[0] ?? -1,
      after?.[1] ?? 0,
      after ? BADGE_TYPES[after[2]] : '',
      byApp ? request.appId : null,
    ];
    const sides = types.map((type) => {
      parameters.push(type, limit + 1);
      return side(parameters.length - 1, byApp);
    });
    const rows: Row[] = await this.dataSource.query(
      `WITH page AS (SELECT * FROM (${sides.join(' UNION ALL ')}) s ORDER BY set_price, app_id, badge_type LIMIT $${parameters.length})
       SELECT page.*, a.name AS app_name, q.prices_as_of
         FROM page
         LEFT JOIN apps a ON a.app_id = page.app_id
         CROSS JOIN LATERAL (SELECT min(c.updated_at) AS prices_as_of FROM card_market_prices c
                              WHERE c.app_id = page.app_id AND c.badge_type = page.badge_type) q
        ORDER BY page.set_price, page.app_id, page.badge_type`,
      parameters,
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      badges: page.map(toCheapestBadge),
      ...(rows.length > limit ? { nextCursor: encodeCursor([last.set_price, last.app_id, BADGE_TYPES.indexOf(last.badge_type)]) } : {}),
    };
  }
}

function toCheapestBadge(row: Row): CheapestBadge {
  const maxLevel = MAX_LEVEL[row.badge_type];
  return {
    appId: row.app_id,
    appName: row.app_name ?? '',
    badgeType: row.badge_type,
    cards: row.cards,
    setCost: row.set_price,
    xpPerLevel: XP_PER_LEVEL,
    costPerXp: row.set_price / XP_PER_LEVEL,
    maxLevel,
    fullBadgeCost: Math.min(INT32_MAX, maxLevel * row.set_price),
    averageVolume: row.average_volume,
    pricesAsOf: row.prices_as_of ? row.prices_as_of.toISOString() : null,
  };
}
