import { Injectable } from '@nestjs/common';
import { appsOf, FeedEntry } from '../change-feed/change-entry';
import { CatalogueBook } from './catalogue-book';
import { CraftingBadgeType } from './dto/crafting-plan.dto';
import { Quote, quoteKey } from './crafting-plan';

const QUOTES = 'SELECT badge_type, market_hash_name, lowest_price, updated_at FROM card_market_prices';
/** An app's quotes: a range of the primary key (app_id first). */
const APPS_QUOTES = `${QUOTES} WHERE app_id = ANY($1::int[])`;

interface QuoteRow {
  badge_type: CraftingBadgeType;
  market_hash_name: string;
  lowest_price: number | null;
  updated_at: Date;
}

/**
 * Every trading card's quote (`card_market_prices`), held in process for the planner. The table is the catalogue's
 * size (a row per card, normal and foil: ~8k at the seeded catalogue, ~200k at the platform's), not the population's,
 * and each plan reads hundreds of quotes: read per request they cost PostgreSQL ~4 ms and the API ~5 ms of CPU at a
 * million accounts (more than the rest of the plan together).
 *
 * A projection of the change feed (CatalogueBook): every store of quotes records a `card-prices` entry naming its app
 * in its transaction (AppPricer.store), and the book reads that app's quotes again (an entry naming no app, a bulk
 * write: all of them). A card dropped from a set keeps its quote here until the next load: a plan walks the set's
 * current card names, so it is never looked up. A plan's `pricesUpdatedAt` says how old the quotes it used are.
 */
@Injectable()
export class CardQuoteBook extends CatalogueBook<Map<string, Quote>> {
  readonly name = 'card-quotes';
  private quotes = new Map<string, Quote>();

  async load(): Promise<void> {
    const quotes = new Map<string, Quote>();
    this.put(quotes, await this.dataSource.query(QUOTES));
    this.quotes = quotes;
  }

  async apply(entries: readonly FeedEntry[]): Promise<void> {
    const apps = appsOf(entries, 'card-prices');
    if (apps === 'all') await this.load();
    else if (apps) this.put(this.quotes, await this.dataSource.query(APPS_QUOTES, [apps]));
  }

  protected held(): Map<string, Quote> {
    return this.quotes;
  }

  protected drop(): void {
    this.quotes = new Map();
  }

  private put(quotes: Map<string, Quote>, rows: QuoteRow[]): void {
    for (const row of rows)
      quotes.set(quoteKey(row.badge_type, row.market_hash_name), { lowestPrice: row.lowest_price, updatedAt: row.updated_at });
  }
}
