import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CraftingBadgeType } from './dto/crafting-plan.dto';
import { Quote, quoteKey } from './crafting-plan';

/** How long a process plans from the quotes it holds before it asks for the ones written since (at most). */
const FRESH_MS = 10_000;
/**
 * Quotes are read again from this long before the newest one held: a pricing transaction that took its `updated_at`
 * before another's but committed after it is still picked up.
 */
const OVERLAP_MS = 60_000;

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
 * million accounts (more than the rest of the plan together). The book is loaded on the first plan, then refreshed
 * at most every 10 s with the rows written since (one pass over the catalogue-sized table); a plan waits only for the
 * first load. Cards dropped from a set keep their row here but are never looked up: a plan walks the set's current
 * card names. A plan's `pricesUpdatedAt` says how old the quotes it used are.
 */
@Injectable()
export class CardQuoteBook {
  private readonly quotes = new Map<string, Quote>();
  private newest = 0;
  private checkedAt = 0;
  private loading: Promise<void> | null = null;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The quotes, refreshed when older than FRESH_MS (the first call waits for the load; later ones do not). */
  async current(): Promise<Map<string, Quote>> {
    if (Date.now() - this.checkedAt > FRESH_MS) {
      this.loading ??= this.refresh().finally(() => (this.loading = null));
      if (this.checkedAt === 0) await this.loading;
    }
    return this.quotes;
  }

  private async refresh(): Promise<void> {
    const since = new Date(this.newest === 0 ? 0 : this.newest - OVERLAP_MS);
    const rows: QuoteRow[] = await this.dataSource.query(
      'SELECT badge_type, market_hash_name, lowest_price, updated_at FROM card_market_prices WHERE updated_at >= $1',
      [since],
    );
    for (const row of rows) {
      this.quotes.set(quoteKey(row.badge_type, row.market_hash_name), { lowestPrice: row.lowest_price, updatedAt: row.updated_at });
      this.newest = Math.max(this.newest, row.updated_at.getTime());
    }
    this.checkedAt = Date.now();
  }
}
