import { NestFactory } from '@nestjs/core';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { steamId64Of } from '../../src/account-records/account.enums';
import { PlatformClient } from '../../src/platform/client/platform-client';
import { JsonLogger } from '../../src/common/logging/json-logger';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { dropDatabase } from '../../src/database/ensure-database';
import { prepareDatabase } from '../../src/database/prepare-database';
import { PlatformSimulator } from '../../src/platform/simulator';
import { WorkerModule } from '../../src/worker.module';

/** `--name value` flags of a bench script, as numbers. */
export function numberFlag(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

/** `--name value` flags of a bench script, as text. */
export function textFlag(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

export interface BenchEnvironment {
  config: AppConfig;
  simulator: PlatformSimulator;
  close(): Promise<void>;
}

/** A simulator and a fresh database + Redis prefix of its own, so a benchmark never touches real data. */
export async function benchEnvironment(name: string, accounts: number, extra: Record<string, string> = {}): Promise<BenchEnvironment> {
  const simulator = new PlatformSimulator({ seed: 3, accounts, apiKey: null });
  const port = await simulator.listen(0);
  const config = loadConfig({
    DATABASE_URL: `postgres://postgres@127.0.0.1:5432/badge_stats_bench_${name}`,
    REDIS_PREFIX: `bench:${name}:${Date.now()}`,
    PLATFORM_API_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'error',
    UPDATE_COOLDOWN_SECONDS: '0',
    ...extra,
  });
  JsonLogger.setLevel(config.logLevel);
  await dropDatabase(config.databaseUrl);
  await prepareDatabase(config);
  return {
    config,
    simulator,
    async close() {
      await simulator.close();
      await dropDatabase(config.databaseUrl);
    },
  };
}

export async function startWorker(config: AppConfig) {
  const worker = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { logger: false });
  await worker.init();
  return worker;
}

export function report(title: string, rows: Record<string, string | number>[]): void {
  process.stdout.write(`\n${title}\n`);
  for (const row of rows)
    process.stdout.write(
      `  ${Object.entries(row)
        .map(([k, v]) => `${k}=${v}`)
        .join('  ')}\n`,
    );
}

/**
 * The baseline of the update benchmarks: the platform calls an update makes for each account, `concurrency` at a
 * time, with no queue or database. Returns the seconds it took.
 */
export async function readAsTheWorker(client: PlatformClient, ids: number[], concurrency: number): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < ids.length) {
        const steamId = steamId64Of(ids[next++]);
        await client.getPlayerSummaries([steamId]);
        await client.getPlayerBans([steamId]);
        await client.getBadges(steamId);
        await client.getOwnedGames(steamId, { includeAppInfo: true, includePlayedFreeGames: true });
        await client.getFriendList(steamId);
        await client.getUserGroupList(steamId);
        await client.getInventory(steamId);
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

/**
 * What the host was doing beside the figures: its load, and whether it pages out idle page cache (a DAMON `pageout`
 * scheme, as machines of this kind run). With one, a table PostgreSQL has not read for that long is read from disk
 * again, which shows first in the p99s at a million accounts (docs/performance-history.md).
 */
export function hostConditions(): string {
  const load = loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  const idle = pageOutAfter();
  return `load average ${load} on ${availableParallelism()} cores${idle ? `; the host pages out page cache idle for ${idle}` : ''}`;
}

/** How long page cache stays idle before an active DAMON `pageout` scheme of the host reclaims it; null when none is. */
function pageOutAfter(): string | null {
  const numbered = (dir: string) => readdirSync(dir).filter((name) => /^\d+$/.test(name));
  const read = (...path: string[]) => readFileSync(join(...path), 'utf8').trim();
  const root = '/sys/kernel/mm/damon/admin/kdamonds';
  try {
    for (const kdamond of numbered(root)) {
      if (read(root, kdamond, 'state') !== 'on') continue;
      for (const context of numbered(join(root, kdamond, 'contexts'))) {
        const at = join(root, kdamond, 'contexts', context);
        const aggregationUs = Number(read(at, 'monitoring_attrs', 'intervals', 'aggr_us'));
        for (const scheme of numbered(join(at, 'schemes'))) {
          if (read(at, 'schemes', scheme, 'action') !== 'pageout') continue;
          const ages = Number(read(at, 'schemes', scheme, 'access_pattern', 'age', 'min'));
          return `${Math.round((ages * aggregationUs) / 1e6)} s (DAMON)`;
        }
      }
    }
  } catch {
    // No DAMON interface on this host (or no permission to read it).
  }
  return null;
}
