import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { LeaderboardAccount } from '../account-records/dto/leaderboard-account.dto';
import { CARD_VALUES, CardValues, cardOf, cardRoles } from '../account-records/cards/card-values';
import { toAppBadge } from '../apps/mappers/app-badge.mapper';
import { BadgeCatalogService } from '../badges/badge-catalog.service';
import { SqlConditions } from '../common/sql/sql-conditions';
import { decodeCursor, encodeCursor } from '../common/wire/cursor';
import { FEED_DEFAULT_LIMIT, V1ActivityEvent, V1ActivityListAccountFeedResponseBody } from './dto/activity.dto';
import { ActivityEventEntity } from './entities/activity-event.entity';

type FeedRow = ActivityEventEntity & { card: CardValues | null };

export interface FeedQuery {
  accountId?: number;
  cursor?: string;
  eventTypes?: string[] | null;
  limit?: number;
}

/** The activity feeds, newest first with keyset cursors, and the mapping of stored events to the wire. */
@Injectable()
export class ActivityFeedService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly catalog: BadgeCatalogService,
  ) {}

  async list(query: FeedQuery): Promise<V1ActivityListAccountFeedResponseBody> {
    const limit = query.limit ?? FEED_DEFAULT_LIMIT;
    const cursor = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'int64']) : null;
    const types = [...new Set(query.eventTypes ?? [])];
    const rows =
      query.accountId === undefined && types.length
        ? await this.globalOfTypes(types, cursor, limit + 1)
        : await this.feed(query.accountId, types, cursor, limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      events: await this.toWire(page),
      ...(rows.length > limit ? { nextCursor: encodeCursor([last.occurredAt.toISOString(), String(last.id)]) } : {}),
    };
  }

  /** One account's feed (ix_activity_events_account_feed) or the whole feed (ix_activity_events_feed), newest first. */
  private feed(accountId: number | undefined, types: string[], cursor: [string, string] | null, limit: number) {
    const where = new SqlConditions();
    if (accountId !== undefined) where.add((p) => `account_id = ${p}`, accountId);
    if (types.length) where.add((p) => `event_type = ANY(${p})`, types);
    if (cursor) where.addAll((p1, p2) => `(occurred_at, id) < (${p1}::timestamptz, ${p2}::bigint)`, ...cursor);
    return this.select(`WHERE ${where.sql()} ORDER BY occurred_at DESC, id DESC LIMIT ${limit}`, where.parameters);
  }

  /**
   * The global feed of some types: the newest `limit` events of each type from its own range of
   * ix_activity_events_type_feed, merged. A filter on the whole feed's index would read past every event of the
   * other types to find a rare one.
   */
  private globalOfTypes(types: string[], cursor: [string, string] | null, limit: number) {
    return this.select(
      `WHERE id IN (
         SELECT e.id FROM unnest($1::text[]) AS t(event_type)
          CROSS JOIN LATERAL (
            SELECT id, occurred_at FROM activity_events
             WHERE event_type = t.event_type AND ($2::timestamptz IS NULL OR (occurred_at, id) < ($2::timestamptz, $3::bigint))
             ORDER BY occurred_at DESC, id DESC LIMIT ${limit}) e)
       ORDER BY occurred_at DESC, id DESC LIMIT ${limit}`,
      [types, cursor?.[0] ?? null, cursor?.[1] ?? null],
    );
  }

  async byIds(ids: string[]): Promise<V1ActivityEvent[]> {
    return ids.length ? this.toWire(await this.select('WHERE id = ANY($1::bigint[]) ORDER BY id', [ids])) : [];
  }

  /** The events of `ids` that still exist, by id (the stream pairs each with its replay entry). */
  async byIdsKeyed(ids: string[]): Promise<Map<string, V1ActivityEvent>> {
    if (!ids.length) return new Map();
    const rows = await this.select('WHERE id = ANY($1::bigint[]) ORDER BY id', [ids]);
    const events = await this.toWire(rows);
    return new Map(rows.map((row, i) => [String(row.id), events[i]]));
  }

  /** The events with their account's card (CardValues, a primary-key read per event): no second query for the cards. */
  private select(rest: string, parameters: unknown[]): Promise<FeedRow[]> {
    return this.dataSource.query(
      `SELECT id, account_id AS "accountId", event_type AS "eventType", occurred_at AS "occurredAt", data,
              (SELECT ${CARD_VALUES} FROM accounts a ${cardRoles('r.account_id = activity_events.account_id')}
                WHERE a.account_id = activity_events.account_id) AS card
         FROM activity_events ${rest}`,
      parameters,
    );
  }

  private async toWire(rows: FeedRow[]): Promise<V1ActivityEvent[]> {
    const badgeIds = [...new Set(rows.flatMap((row) => (row.data.badge ? [row.data.badge.badgeId] : [])))];
    const badges = new Map((await this.catalog.byIds(badgeIds)).map((badge) => [badge.id, badge]));
    // An account's card is built once however many of its events the page holds.
    const cards = new Map<number, LeaderboardAccount | null>();
    for (const row of rows) if (!cards.has(row.accountId)) cards.set(row.accountId, row.card && cardOf(row.card));
    return rows.map((row) => {
      const held = row.data.badge;
      const badge = held ? badges.get(held.badgeId) : undefined;
      return {
        accountId: row.accountId,
        eventType: row.eventType,
        occurredAt: new Date(row.occurredAt).toISOString(),
        account: cards.get(row.accountId) ?? null,
        ...(badge && held ? { appBadge: toAppBadge(badge, { completionTime: held.completionTime, level: held.level, xp: held.xp }) } : {}),
        ...(row.data.level ? { level: row.data.level } : {}),
        ...(row.data.scarcity ? { scarcity: row.data.scarcity } : {}),
        ...(row.data.rank ? { rank: row.data.rank } : {}),
      };
    });
  }
}
