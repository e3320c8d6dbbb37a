/**
 * # A synthetic population
 *
 *     npm run seed -- --accounts 100000 [--seed 1] [--now 2026-11-20T12:00:00Z] [--threads 2]
 *     npm run seed -- --prices-only --accounts 100000 [--seed 1] [--now 2026-11-20T12:00:00Z]
 *
 * Fills the configured database (DATABASE_URL, migrated first as `npm start` does; it must hold no accounts yet)
 * with the platform simulator's accounts 1..N exactly as the update worker would have stored them: profiles and
 * counters, badges, apps with playtime, friends, groups (memberships and the groups' own rows), inventories, the
 * badge and app catalogue, 1–8 update
 * runs per account (`account_updates` with before/after counters over the last 120 days, most within the last
 * 30), the activity those runs revealed, profile views in Redis (REDIS_PREFIX), then rebuilds derived state.
 * Trend snapshots (analytics.getTrend, `analytics_daily_quantiles`): the seeded day's from the accounts as stored,
 * and one for each earlier day the runs cover (up to 120 days back), by this rule: day d holds the accounts with a
 * completed run on or before d, each at the counters of its latest such run (metrics no run records — awards, points,
 * donations — at their stored value; account age aged on d; region and country as stored). Computed from one read of
 * the runs, O(runs · log runs) per metric (analytics/trends/seeded-trends.ts), not a percentile query per day.
 * Serve later updates with a simulator of the same seed and size (SIMULATOR_SEED / SIMULATOR_ACCOUNTS = N);
 * an update of a seeded account then changes only what moved in the simulator since its last seeded run.
 * Last, the market prices of every card set of the seeded catalogue at "now" (seed-prices.ts): each card's quote
 * (`card_market_prices`) and the sets' figures (`app_market_prices`), exactly what the pricing job would store had
 * it read the simulator's market then. `--prices-only` does only that, on an ALREADY seeded database (one seeded
 * before the prices were part of the seed): same --seed and --accounts as its seed; --now defaults to the current
 * time (prices as the market stands now). It upserts, so running it again re-prices at the new "now".
 *
 * How: worker threads replay each account's runs through the real PlatformClient and PlatformSnapshotReader over
 * an in-process simulator (in-process-platform.ts) and derive rows with the writer's pure functions
 * (profile-fields.ts, snapshot-rows.ts); the main thread streams them into one COPY per table
 * (bulk-load.ts), with secondary indexes and foreign keys dropped during the load and restored after it.
 *
 * Files: seed-population.ts (the phases), generator-pool.ts (threads, in-order hand-off), chunk-generator.ts (a
 * thread), account-history.ts (one account's runs), catalogue-observations.ts (badge and app catalogue),
 * copy-text.ts (COPY format), bulk-load.ts (COPY, index and key handling), profile-views.ts (Redis views).
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { JsonLogger } from '../common/logging/json-logger';
import { loadConfig } from '../config/app-config';
import { prepareDatabase } from '../database/prepare-database';
import { Universe } from '../platform/simulator/universe/universe';
import { seedPopulation } from './seed-population';
import { fillSeededPrices } from './seed-prices';

const USAGE = 'usage: npm run seed -- [--prices-only] --accounts N [--seed S] [--now ISO-8601] [--threads T]';

function integer(name: string, raw: string | undefined, fallback: number | undefined, min: number): number {
  if (raw === undefined && fallback !== undefined) return fallback;
  if (raw === undefined || !/^\d+$/.test(raw) || Number(raw) < min) throw new Error(`--${name} must be an integer ≥ ${min}\n${USAGE}`);
  return Number(raw);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      accounts: { type: 'string' },
      seed: { type: 'string' },
      now: { type: 'string' },
      threads: { type: 'string' },
      'prices-only': { type: 'boolean' },
    },
    strict: true,
  });
  const config = loadConfig(process.env);
  JsonLogger.setLevel(config.logLevel);
  const now = values.now === undefined ? undefined : new Date(values.now);
  if (now && Number.isNaN(now.getTime())) throw new Error(`--now must be an ISO-8601 instant\n${USAGE}`);
  if (values['prices-only']) {
    const seed = integer('seed', values.seed, config.simulator.seed, 0);
    const accounts = integer('accounts', values.accounts, undefined, 1);
    await prepareDatabase(config);
    const universe = new Universe({ seed, accounts, tickMs: config.simulator.tickMs });
    const prices = await fillSeededPrices(config.databaseUrl, universe, now ?? new Date());
    process.stdout.write(`${JSON.stringify({ prices })}\n`);
    return;
  }
  const report = await seedPopulation(config, {
    accounts: integer('accounts', values.accounts, undefined, 1),
    // Defaults to the simulator seed of this configuration, so `npm start` afterwards serves the same universe.
    seed: integer('seed', values.seed, config.simulator.seed, 0),
    now,
    threads: values.threads === undefined ? undefined : integer('threads', values.threads, undefined, 0),
    log: (line) => process.stdout.write(`${line}\n`),
  });
  process.stdout.write(
    `${JSON.stringify({ rows: report.rows, milestones: report.milestones, groups: report.groups, views: report.views, prices: report.prices, timings: report.timings })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
