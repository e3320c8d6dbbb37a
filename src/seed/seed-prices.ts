import { Client } from 'pg';
import { Universe } from '../platform/simulator/universe/universe';
import { appQuotesOf, foilNameOf, storeAppQuotes } from '../pricing/card-quotes';

/** The market's order of a set (its search sorts by name; the names share the `{appId}-` prefix). */
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The set as AppCardSets stores it after reading the market's search, and the app marked priced (PricingCycle). */
const STORE_SET = `
  INSERT INTO app_card_counts AS k (app_id, cards, card_names, cards_checked_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT (app_id) DO UPDATE SET cards = EXCLUDED.cards, card_names = EXCLUDED.card_names, cards_checked_at = EXCLUDED.cards_checked_at`;
const MARK_PRICED = `
  INSERT INTO app_pricing (app_id, checked_at) VALUES ($1, $2)
  ON CONFLICT (app_id) DO UPDATE SET checked_at = EXCLUDED.checked_at`;

/**
 * The market prices of every card set of the seeded catalogue (the `apps` rows the simulator knows) at `now`,
 * exactly as the pricing job would store them had it read the simulator's market then: each card's quote
 * (`card_market_prices`, normal and foil), the sets' figures (`app_market_prices`, through the job's own
 * storeAppQuotes), the set as the market lists it (`app_card_counts.cards`/`card_names`, which the job prices) and
 * the app marked priced (`app_pricing`). Deterministic: the simulator's marketPrice at the tick of `now`. Safe to run
 * again (an upsert; cards no longer in a set are removed), so it also fills a database seeded without it
 * (`npm run seed -- --prices-only`). One transaction: a few hundred apps, tens of thousands of rows.
 */
export async function seedMarketPrices(client: Client, universe: Universe, now: Date): Promise<{ apps: number; cards: number }> {
  const tick = universe.tickAt(now.getTime());
  const { rows } = await client.query<{ app_id: number }>('SELECT app_id FROM apps ORDER BY app_id');
  const query = (sql: string, parameters: unknown[]) => client.query(sql, parameters).then((result) => result.rows as unknown[]);
  let apps = 0;
  let cards = 0;
  await client.query('BEGIN');
  try {
    for (const { app_id: appId } of rows) {
      const app = universe.catalogue.byId(appId);
      if (!app) continue;
      const names = app.cards.map((card) => `${appId}-${card}`).sort(byName);
      const quote = (name: string) => universe.marketPrice(name, tick);
      const quotes = appQuotesOf(
        appId,
        names,
        names.map(quote),
        names.map((name) => quote(foilNameOf(name))),
      );
      await storeAppQuotes(query, appId, quotes, now);
      await client.query(STORE_SET, [appId, names.length, names, now]);
      await client.query(MARK_PRICED, [appId, now]);
      apps++;
      cards += quotes.cards.length;
    }
    // A bulk write, recorded in the change feed with it as naming no app: a running API's planner books read every
    // quote and set again (CardQuoteBook, CardSetBook).
    await client.query(`INSERT INTO change_feed (kind) VALUES ('card-prices'), ('card-sets')`);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
  return { apps, cards };
}

/** `npm run seed -- --prices-only`: the prices of an already seeded database (migrated first), at `now`. */
export async function fillSeededPrices(databaseUrl: string, universe: Universe, now: Date): Promise<{ apps: number; cards: number }> {
  const client = new Client({ connectionString: databaseUrl, application_name: 'badge-stats-seed' });
  await client.connect();
  try {
    return await seedMarketPrices(client, universe, now);
  } finally {
    await client.end();
  }
}
