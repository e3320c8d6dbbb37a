import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { BadgeCosts, NO_BADGE_COSTS, toBadgeCosts } from './badge-costs';

/** A priced badge: the price of the set it consumes per level (USD cents) and whether that set is the foil one. */
interface PricedBadge {
  foil: boolean;
  setPrice: number;
}

/**
 * Every priced badge: a badge of an app whose set of its kind (normal or foil) has a market price. Special badges (no
 * app) have none, nor do the badges of apps not priced yet: they add nothing to a cost.
 */
const PRICED_BADGES_SQL = `
  SELECT b.id, b.is_foil, p.set_price
    FROM app_market_prices p
    JOIN badges b ON b.app_id = p.app_id AND b.is_foil = (p.badge_type = 'foil')
   WHERE p.set_price IS NOT NULL`;

/**
 * # The price book of the profile's cost fields
 *
 * A profile's `normalBadgeCost` / `foilBadgeCost` / `appCost` are its badge levels at today's set prices. Summed in
 * the profile's statement they cost PostgreSQL a badge and a price look-up per badge held: about half of that
 * statement's time (docs/performance-history.md, "Profile costs from a price book"). The prices are few (two per priced app),
 * the same for every profile, and move once per pricing cycle; so each API process keeps them here, and the statement
 * only returns the account's own badge ids and levels (profile-extras.ts), which `costsOf` prices.
 *
 * Freshness: the book is at most SHARED_ANSWER_TTL_MS old, like every other answer that is the same for every caller
 * (docs/architecture.md, "Shared answers"): a read in the second half of its life starts the next load in the
 * background and is priced with the kept book; a read past its life waits for the load (one at a time). With 0 (the
 * tests) every read loads it. A failed load is not kept: its readers get the error, the next read loads again.
 */
@Injectable()
export class BadgePriceBook {
  private kept: { at: number; prices: Map<number, PricedBadge> } | null = null;
  private loading: Promise<Map<number, PricedBadge>> | null = null;
  private readonly ttlMs: number;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ttlMs = config.sharedAnswerTtlMs;
  }

  /** The cost fields of badges held at these levels (`badgeIds[i]` at `levels[i]`); unpriced badges add nothing. */
  async costsOf(badgeIds: readonly number[], levels: readonly number[]): Promise<BadgeCosts> {
    if (!badgeIds.length) return NO_BADGE_COSTS;
    const prices = await this.prices();
    let [normal, foil] = [0, 0];
    for (let i = 0; i < badgeIds.length; i++) {
      const priced = prices.get(badgeIds[i]);
      if (!priced) continue;
      if (priced.foil) foil += levels[i] * priced.setPrice;
      else normal += levels[i] * priced.setPrice;
    }
    return toBadgeCosts(normal, foil);
  }

  private async prices(): Promise<Map<number, PricedBadge>> {
    // Nothing kept: a load already under way may have started before the caller's own write.
    if (this.ttlMs === 0) return this.fetch();
    const age = this.kept ? Date.now() - this.kept.at : Infinity;
    if (age < this.ttlMs) {
      if (age >= this.ttlMs / 2 && !this.loading) this.load().catch(() => undefined);
      return this.kept!.prices;
    }
    return this.loading ?? this.load();
  }

  /** One load at a time; its result is kept from the moment it started (so a book is never older than its TTL). */
  private load(): Promise<Map<number, PricedBadge>> {
    const at = Date.now();
    this.loading = (async () => {
      try {
        const prices = await this.fetch();
        this.kept = { at, prices };
        return prices;
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }

  private async fetch(): Promise<Map<number, PricedBadge>> {
    const rows: { id: number; is_foil: boolean; set_price: number }[] = await this.dataSource.query(PRICED_BADGES_SQL);
    return new Map(rows.map((row): [number, PricedBadge] => [row.id, { foil: row.is_foil, setPrice: row.set_price }]));
  }
}
