import { NestFactory } from '@nestjs/core';
import { steamId64Of } from '../../src/accounts/account.enums';
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
