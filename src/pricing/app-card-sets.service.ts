import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CatalogueChange } from '../change-feed/change-entry';
import { ChangeFeed } from '../change-feed/change-feed';
import { JsonLogger } from '../common/logging/json-logger';
import { PlatformClient } from '../platform/client/platform-client';
import { PlatformHttpError } from '../platform/client/platform.errors';

/** A set is read again this long after it was last read: sets change rarely (a card added to an old game, say). */
export const CARD_SET_REFRESH_DAYS = 30;
/** Sets read per pricing cycle at most: one market call each, within the market's pace and the cycle's budget. */
export const CARD_SETS_PER_CYCLE = 20;

/**
 * The apps whose set is due: every app with a badge or with cards seen in tracked inventories, never read or read
 * longest ago (one pass over the badges' app index and the counts' keys: thousands of rows, once per cycle).
 */
const DUE = `
  SELECT x.app_id FROM (
    SELECT DISTINCT app_id FROM badges WHERE app_id IS NOT NULL
    UNION SELECT app_id FROM app_card_counts) x
  LEFT JOIN app_card_counts k ON k.app_id = x.app_id
  WHERE k.cards_checked_at IS NULL OR k.cards_checked_at < now() - make_interval(days => $1)
  ORDER BY k.cards_checked_at NULLS FIRST, x.app_id
  LIMIT $2`;

const STORE = `
  INSERT INTO app_card_counts AS k (app_id, cards, card_names, cards_checked_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT (app_id) DO UPDATE SET cards = EXCLUDED.cards, card_names = EXCLUDED.card_names, cards_checked_at = EXCLUDED.cards_checked_at`;

/**
 * # Card sets from the platform
 *
 * An app's trading-card set (how many cards a badge level consumes, and which) is the platform's, not what tracked
 * inventories happen to hold: the cards seen in inventories undercount most sets (an app of 11 cards seen once held
 * 1). The platform's Web API has no call for it; the community market does: its search, filtered to the app's normal
 * trading cards (PlatformClient.getAppCardSet), lists the set with its size. Read once per app, stored in
 * `app_card_counts` (`cards`, `card_names`), and again every CARD_SET_REFRESH_DAYS; by the pricing worker, a bounded
 * number per cycle (CARD_SETS_PER_CYCLE), each one market call paced like the price calls (MarketCallPace), so the
 * platform's limits hold however many apps there are. Until an app's set was read, the service falls back to the cards
 * seen (`classes`), a lower bound. `app.listBadges`' `cardCount`, `account.listInventorySets`' complete sets and the
 * set prices (the cost fields) follow.
 */
@Injectable()
export class AppCardSets {
  private readonly logger = new JsonLogger('AppCardSets');

  constructor(
    private readonly platform: PlatformClient,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly feed: ChangeFeed,
  ) {}

  /** Reads the due sets, at most `limit`; returns how many were read. A market that is away ends the batch. */
  async refreshDue(limit = CARD_SETS_PER_CYCLE, signal?: AbortSignal): Promise<number> {
    const due: { app_id: number }[] = await this.dataSource.query(DUE, [CARD_SET_REFRESH_DAYS, limit]);
    let read = 0;
    for (const { app_id: appId } of due) {
      if (signal?.aborted) break;
      try {
        await this.refresh(appId, signal);
        read++;
      } catch (error) {
        // A 4xx is about this app and will not change soon: mark it read (an empty set) so the walk moves on. Only
        // the time is written: nothing a planner holds (CardSetBook), so nothing is recorded in the change feed.
        if (!(error instanceof PlatformHttpError)) throw error;
        this.logger.warn({ msg: 'card set not read', appId, error: error.message });
        await this.dataSource.query(
          `INSERT INTO app_card_counts AS k (app_id, cards_checked_at) VALUES ($1, now())
           ON CONFLICT (app_id) DO UPDATE SET cards_checked_at = EXCLUDED.cards_checked_at`,
          [appId],
        );
      }
    }
    return read;
  }

  /**
   * Reads one app's set from the platform and stores it. An app the market lists no card of has a set of 0. The store
   * is recorded in the change feed in its transaction (`card-sets`): the planners' CardSetBook reads the set again.
   */
  async refresh(appId: number, signal?: AbortSignal): Promise<{ cards: number; hashNames: string[] }> {
    const set = await this.platform.getAppCardSet(appId, false, signal);
    await this.dataSource.transaction(async (manager) => {
      await manager.query(STORE, [appId, set.cards, set.hashNames, new Date()]);
      const change: CatalogueChange = { appIds: [appId] };
      await this.feed.record(manager, { kind: 'card-sets', payload: { ...change } });
    });
    await this.feed.nudge();
    return set;
  }
}
