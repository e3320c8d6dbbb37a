import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CatalogueChange, SetPricesChange } from '../change-feed/change-entry';
import { ChangeFeed } from '../change-feed/change-feed';
import { PlatformClient } from '../platform/client/platform-client';
import type { MarketPrice } from '../platform/client/platform.types';
import { AppQuotes, appQuotesOf, foilNameOf, storeAppQuotes } from './card-quotes';
import { SetPrice } from './set-price';

/** Prices are read in USD (currency 1), whatever the platform's locale; the wire reports cents. */
const USD = 1;

/**
 * The market hash names of an app's normal cards: the set as the platform's market lists it (`app_card_counts.
 * card_names`, read by AppCardSets) when it was read; until then one probe of `ix_inventory_items_class_id` per card
 * class the service has seen held (`app_card_classes`), a lower bound.
 */
const PLATFORM_CARD_NAMES = 'SELECT unnest(card_names) AS name FROM app_card_counts WHERE app_id = $1 AND card_names IS NOT NULL';
const CARD_NAMES = `
  SELECT i.market_hash_name AS name
    FROM app_card_classes c
    CROSS JOIN LATERAL (SELECT market_hash_name FROM inventory_items WHERE class_id = c.class_id LIMIT 1) i
   WHERE c.app_id = $1 AND c.owners > 0
   ORDER BY c.class_id`;

export { foilNameOf };

/** Reads one app's card prices from the market and keeps its normal and foil set prices. */
@Injectable()
export class AppPricer {
  constructor(
    private readonly platform: PlatformClient,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly feed: ChangeFeed,
  ) {}

  async cardNames(appId: number): Promise<string[]> {
    const [known]: { known: boolean }[] = await this.dataSource.query(
      'SELECT card_names IS NOT NULL AS known FROM app_card_counts WHERE app_id = $1',
      [appId],
    );
    const rows: { name: string }[] = await this.dataSource.query(known?.known ? PLATFORM_CARD_NAMES : CARD_NAMES, [appId]);
    return rows.map((row) => row.name);
  }

  /**
   * Both sets' figures and each card's quote: one market call per card and side, each paced by the shared
   * MarketCallPace (the card quotes are the same calls' answers: no extra call). An aborted `signal` (shutdown)
   * abandons the call in flight, its wait and its retries, rejecting with the signal's reason.
   */
  async read(appId: number, names: string[], signal?: AbortSignal): Promise<AppQuotes> {
    const quote = (name: string): Promise<MarketPrice | null> => this.platform.getMarketPrice(name, USD, signal);
    const normal: (MarketPrice | null)[] = [];
    const foil: (MarketPrice | null)[] = [];
    // One after another: the pace serialises the calls anyway, and a failure then wastes no reserved slots.
    for (const name of names) normal.push(await quote(name));
    for (const name of names) foil.push(await quote(foilNameOf(name)));
    return appQuotesOf(appId, names, normal, foil);
  }

  /**
   * Stores the set figures and the card quotes (`card_market_prices`, cards no longer in the set removed) and marks
   * the app checked, in one transaction; returns the sets whose figures changed (a set seen for the first time
   * counts as changed). The changed sets are recorded in the change feed in the same transaction (`set-prices`), so
   * a consumer of it (the watches) sees every stored change, even one stored while it was not running; and so is
   * every store of the cards' quotes (`card-prices`: each store rewrites them), which the planners' CardQuoteBook
   * follows.
   */
  async store(appId: number, quotes: AppQuotes, at: Date): Promise<SetPrice[]> {
    const changed = await this.dataSource.transaction(async (manager) => {
      const sets = await storeAppQuotes((sql, parameters) => manager.query(sql, parameters), appId, quotes, at);
      await this.markChecked(appId, at, manager);
      if (sets.length) {
        const payload: SetPricesChange = { appId, sets: sets.map(({ badgeType, setPrice }) => ({ badgeType, setPrice })) };
        await this.feed.record(manager, { kind: 'set-prices', payload: { ...payload } });
      }
      const cards: CatalogueChange = { appIds: [appId] };
      await this.feed.record(manager, { kind: 'card-prices', payload: { ...cards } });
      return sets;
    });
    await this.feed.nudge();
    return changed;
  }

  async markChecked(appId: number, at: Date, manager = this.dataSource.manager): Promise<void> {
    await manager.query('UPDATE app_pricing SET checked_at = $2 WHERE app_id = $1', [appId, at]);
  }
}
