import { availableParallelism } from 'node:os';
import { Client } from 'pg';
import { AppConfig } from '../config/app-config';
import { prepareDatabase } from '../database/prepare-database';
import { rebuildInTwoProcesses } from './rebuild-processes';
import { dayOf, writeTrendSnapshot } from '../analytics/trends/trend-snapshots';
import { writeSeededTrends } from '../analytics/trends/seeded-trends';
import { FirstCraft, SeedParameters } from './account-history';
import { CopyLoad, restoreStructures, secondaryStructures, dropStructures } from './bulk-load';
import { CatalogueObservations } from './catalogue-observations';
import { generateInOrder } from './generator-pool';
import { seedProfileViews } from './profile-views';
import { seedGroups } from './seed-groups';
import { seedMarketPrices } from './seed-prices';
import { Universe } from '../platform/simulator/universe/universe';
import { SEED_TABLES, SEED_TABLE_NAMES, SeedTable } from './seed-tables';

export interface SeedOptions {
  accounts: number;
  /** The simulator seed; the simulator serving later updates must use the same seed and account count. */
  seed: number;
  /** The seed's "now": update runs, activity and views lie before it (default: the current time). */
  now?: Date;
  /** Generating threads; 0 generates in this thread (default: one per core, none below 5,000 accounts). */
  threads?: number;
  log?: (line: string) => void;
}

export interface SeedReport {
  accounts: number;
  rows: Record<SeedTable, number>;
  milestones: number;
  /** `groups` rows: every group a seeded account is in, and the service's own. */
  groups: number;
  views: number;
  derived: string[];
  /** The card sets priced at the seed's "now" (seed-prices.ts) and their cards' quotes, normal and foil. */
  prices: { apps: number; cards: number };
  /** Seconds per phase (views and derived run at once, each timed from their common start). */
  timings: Record<'load' | 'indexes' | 'finish' | 'views' | 'derived' | 'total', number>;
}

const CHUNK_SIZE = 500;

/**
 * Fills an empty database with the simulator's accounts 1..N as the update worker would have stored them after
 * their update runs (see account-history.ts), then rebuilds the derived state. Bulk paths only: one COPY per
 * table, secondary indexes and foreign keys dropped around the load and restored from their own definitions.
 */
export async function seedPopulation(config: AppConfig, options: SeedOptions): Promise<SeedReport> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const seconds = (since: number) => Math.round((Date.now() - since) / 100) / 10;
  if (!Number.isInteger(options.accounts) || options.accounts < 1 || options.accounts > 1_000_000)
    throw new Error('accounts must be an integer in 1..1,000,000 (the simulator universe’s range)');
  const parameters: SeedParameters = {
    seed: options.seed,
    accounts: options.accounts,
    nowMs: (options.now ?? new Date()).getTime(),
    cooldownSeconds: config.queue.updateCooldownSeconds,
    tickMs: config.simulator.tickMs,
  };
  const threads = options.threads ?? (options.accounts < 5000 ? 0 : Math.max(1, availableParallelism()));
  await prepareDatabase(config);
  const admin = new Client({ connectionString: config.databaseUrl, application_name: 'badge-stats-seed' });
  const helper = new Client({ connectionString: config.databaseUrl, application_name: 'badge-stats-seed' });
  await admin.connect();
  await helper.connect();
  const rows = Object.fromEntries(SEED_TABLE_NAMES.map((table) => [table, 0])) as Record<SeedTable, number>;
  const catalogue = new CatalogueObservations();
  const firstCrafts: FirstCraft[] = [];
  const timings = { load: 0, indexes: 0, finish: 0, views: 0, derived: 0, total: 0 };
  try {
    await assertEmpty(admin);
    const structures = await secondaryStructures(admin, SEED_TABLE_NAMES);
    const { rows: referenced } = await admin.query<{ table: string }>(
      `SELECT DISTINCT t.relname AS table FROM pg_constraint k JOIN pg_class t ON t.oid = k.confrelid WHERE k.contype = 'f'`,
    );
    const targets = SEED_TABLE_NAMES.map((table) => ({
      table,
      columns: SEED_TABLES[table],
      freeze: !referenced.some((row) => row.table === table),
    }));
    log(`seeding ${options.accounts} accounts (simulator seed ${options.seed}) on ${threads || 'the main'} thread(s)`);
    await dropStructures(admin, structures);
    let phase = Date.now();
    try {
      const load = await CopyLoad.open(config.databaseUrl, targets);
      let accountsDone = 0;
      let nextReport = options.accounts / 10;
      try {
        await generateInOrder(parameters, threads, CHUNK_SIZE, async (chunk) => {
          for (const table of SEED_TABLE_NAMES) {
            await load.write(table, chunk.tables[table]);
            rows[table] += chunk.rows[table];
          }
          catalogue.merge(chunk.catalogue);
          for (const craft of chunk.firstCrafts) firstCrafts.push(craft);
          accountsDone += chunk.rows.accounts;
          if (accountsDone >= nextReport) {
            log(`  ${accountsDone} accounts, ${totalRows(rows)} rows in ${seconds(phase)} s`);
            nextReport += options.accounts / 10;
          }
        });
        await load.finish();
      } catch (error) {
        await load.abort();
        throw error;
      }
      await insertCatalogue(admin, catalogue);
      timings.load = seconds(phase);
      log(`loaded ${totalRows(rows)} rows in ${timings.load} s`);
    } finally {
      // Restored whatever happened, so a failed seed never leaves the schema short of an index or a key.
      phase = Date.now();
      await restoreStructures([admin, helper], structures, SEED_TABLE_NAMES);
      timings.indexes = seconds(phase);
      log(`restored ${structures.length} indexes and foreign keys in ${timings.indexes} s`);
    }
    phase = Date.now();
    const universe = new Universe({ seed: options.seed, accounts: options.accounts, tickMs: config.simulator.tickMs });
    // VACUUM (ANALYZE) works a table in one backend: one after another they left a core idle for a third of this
    // phase. Two lanes instead, one per connection: each writes its table, vacuums it, then takes the next table.
    const tables = [...SEED_TABLE_NAMES, 'badges', 'apps'].filter((table) => table !== 'activity_events');
    const lane = async <T>(client: Client, write: Promise<T>, written: string): Promise<T> => {
      const result = await write;
      await client.query(`VACUUM (ANALYZE) ${written}`);
      for (let table = tables.shift(); table; table = tables.shift()) await client.query(`VACUUM (ANALYZE) ${table}`);
      return result;
    };
    const [milestones, groups] = await Promise.all([
      lane(admin, insertScarcityMilestones(admin, firstCrafts), 'activity_events'),
      lane(helper, seedGroups(helper, universe, config.groups.serviceGroupId, new Date(parameters.nowMs)), 'groups'),
    ]);
    log(`stored ${groups} groups`);
    timings.finish = seconds(phase);
    // Profile views go to Redis (the worker rolls them up into PostgreSQL later) and no keeper of derived state reads
    // them, so they are written beside the rebuild, whose processes leave part of the two cores idle (each mostly one Node thread waiting on its stores).
    // Settled both before either failure is reported: a seed never returns with a writer still running.
    phase = Date.now();
    const timed = async <T>(work: Promise<T>, phaseName: 'views' | 'derived'): Promise<T> => {
      const result = await work;
      timings[phaseName] = seconds(phase);
      return result;
    };
    // The trend snapshots (analytics.getTrend) beside them: the seeded day's, a read of the accounts just loaded, then
    // each day before it that the seeded runs cover (analytics/trends/seeded-trends.ts).
    const trendQuery = (sql: string, values: unknown[]) => admin.query(sql, values).then((result) => result.rows);
    const trendSnapshot = (async () => {
      const today = await writeTrendSnapshot(trendQuery, dayOf(parameters.nowMs));
      const trendStarted = Date.now();
      const before = await writeSeededTrends(trendQuery, dayOf(parameters.nowMs));
      log(`trend snapshots of the seeded days before ${dayOf(parameters.nowMs)}: ${before} rows in ${seconds(trendStarted)} s`);
      return today + before;
    })();
    const [viewsDone, derivedDone, trendDone] = await Promise.allSettled([
      timed(seedProfileViews(config, options.seed, options.accounts, parameters.nowMs), 'views'),
      timed(rebuildInTwoProcesses(config), 'derived'),
      trendSnapshot,
    ]);
    if (viewsDone.status === 'rejected') throw viewsDone.reason;
    if (derivedDone.status === 'rejected') throw derivedDone.reason;
    if (trendDone.status === 'rejected') throw trendDone.reason;
    log(`trend snapshots written (${trendDone.value} rows)`);
    const [views, derived] = [viewsDone.value, derivedDone.value];
    // After the rebuild, which rewrites `app_card_counts.classes` (the prices write its other columns).
    const prices = await seedMarketPrices(admin, universe, new Date(parameters.nowMs));
    log(`priced ${prices.apps} card sets (${prices.cards} card quotes) at ${new Date(parameters.nowMs).toISOString()}`);
    timings.total = seconds(started);
    log(`derived state rebuilt (${derived.join(', ') || 'no keepers'}) in ${timings.derived} s; seed done in ${timings.total} s`);
    return { accounts: options.accounts, rows, milestones, groups, views, derived, prices, timings };
  } finally {
    await admin.end();
    await helper.end();
  }
}

function totalRows(rows: Record<SeedTable, number>): number {
  return Object.values(rows).reduce((sum, n) => sum + n, 0);
}

/** A seed describes a whole population: mixing it with accounts already stored would make neither true. */
async function assertEmpty(client: Client): Promise<void> {
  const [counts] = (
    await client.query<{ accounts: number; badges: number; apps: number }>(
      `SELECT (SELECT count(*) FROM accounts)::int AS accounts, (SELECT count(*) FROM badges)::int AS badges,
              (SELECT count(*) FROM apps)::int AS apps`,
    )
  ).rows;
  if (counts.accounts || counts.badges || counts.apps)
    throw new Error(
      `the database already holds ${counts.accounts} accounts, ${counts.badges} badges and ${counts.apps} apps; seed an empty (new) database`,
    );
}

/** The badge definitions and apps the seeded runs upserted, as their upserts leave them (see CatalogueObservations). */
async function insertCatalogue(client: Client, catalogue: CatalogueObservations): Promise<void> {
  const sightings = [...catalogue.badges.values()].sort((a, b) => a.badgeId - b.badgeId);
  const badges = sightings.map((s) => s.definition);
  await client.query(
    `INSERT INTO badges (id, badge_key, app_id, platform_badge_id, is_foil, scarcity)
     SELECT * FROM unnest($1::int[], $2::text[], $3::int[], $4::int[], $5::bool[], $6::bigint[])`,
    [
      sightings.map((s) => s.badgeId),
      badges.map((b) => b.key),
      badges.map((b) => b.appId),
      badges.map((b) => b.platformBadgeId),
      badges.map((b) => b.isFoil),
      badges.map((b) => b.scarcity),
    ],
  );
  // Later definitions (refreshes after the seed) are numbered above the seeded ones.
  await client.query(`SELECT setval(pg_get_serial_sequence('badges', 'id'), GREATEST((SELECT max(id) FROM badges), 1))`);
  const apps = [...catalogue.apps].sort(([a], [b]) => a - b);
  await client.query(`INSERT INTO apps (app_id, name, icon) SELECT * FROM unnest($1::int[], $2::text[], $3::text[])`, [
    apps.map(([appId]) => appId),
    apps.map(([, app]) => app.name),
    apps.map(([, app]) => app.icon),
  ]);
}

/**
 * ActivityRecorder adds a scarcity milestone to a first-time craft that is among the first 10 tracked holders of
 * its badge, counting the holders stored when the run was written. A seed writes all runs at once, so the order
 * is counted against the final holders instead (see the report of the seed's fidelity in README.md).
 */
async function insertScarcityMilestones(client: Client, crafts: FirstCraft[]): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < crafts.length; i += 20_000) {
    const batch = crafts.slice(i, i + 20_000);
    const result = await client.query(
      `INSERT INTO activity_events (account_id, event_type, occurred_at, data)
       SELECT c.account_id, 'scarcity_milestone', c.occurred_at,
              jsonb_build_object('badge', c.badge, 'scarcity', jsonb_build_object('globalCraftOrder', o.n))
         FROM unnest($1::int[], $2::int[], $3::timestamptz[], $4::jsonb[]) AS c(account_id, badge_id, occurred_at, badge)
        CROSS JOIN LATERAL (
          SELECT count(*)::int AS n FROM (
            SELECT 1 FROM account_badges b
             WHERE b.badge_id = c.badge_id AND (b.completion_time, b.account_id) <= (c.occurred_at, c.account_id) LIMIT 11) s) o
        WHERE o.n <= 10
        ORDER BY c.account_id, c.occurred_at`,
      [
        batch.map((c) => c.accountId),
        batch.map((c) => c.badgeId),
        batch.map((c) => c.occurredAt),
        batch.map((c) => JSON.stringify(c.badge)),
      ],
    );
    inserted += result.rowCount ?? 0;
  }
  return inserted;
}

/**
 * Rebuilds every keeper of derived state (maintained aggregates, the rank engine) from what was just loaded, in the
 * worker's module graph: the worker keeps all derived state in step with updates, so it holds every keeper.
 */
