import 'reflect-metadata';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

/**
 * `node -r ts-node/register/transpile-only scripts/bench/validation-pipe.bench.ts [srcRoot]`: the global pipe's cost
 * per valid request (µs, the best of 15 rounds: the machine is shared, and noise only adds) on a few real bodies, in-process, with the document the app serves.
 * `srcRoot` (default `src`) lets two trees be measured one after the other, alternating processes.
 */
const root = resolve(process.argv[2] ?? join(__dirname, '..', '..', 'src'));
/* eslint-disable @typescript-eslint/no-require-imports */
const { generateOpenApiJson } = require(join(root, 'openapi-json')) as typeof import('../../src/openapi-json');
const { RequestSchemas, WireValidationPipe } = require(
  join(root, 'common/http/validation'),
) as typeof import('../../src/common/http/validation');
/* eslint-enable @typescript-eslint/no-require-imports */

const steamId64 = '76561198842603734';
/** [module under the source root, class, a valid body]. */
const bodies: [string, string, () => unknown][] = [
  ['account-records/dto/account-search.dto', 'AccountSearch', () => ({ id: { steamId64 } })],
  [
    'accounts/dto/compare-badges.dto',
    'V1AccountCompareBadgesRequestBody',
    () => ({
      accounts: [{ id: { steamId64 } }, { vanity: { type: 'internal', value: 'flo' } }],
      appIds: [730, 440],
      mode: 'missing',
      page: 2,
    }),
  ],
  [
    'leaderboards/dto/account-leaderboard.dto',
    'V1LeaderboardGetAccountLeaderboardRequestBody',
    () => ({ leaderboard: 'xp', start: 1, end: 50, location: [{ country: 'Germany' }, null, { region: 'Europe' }] }),
  ],
];

async function main(): Promise<void> {
  const document = JSON.parse(await generateOpenApiJson()) as Parameters<InstanceType<typeof RequestSchemas>['load']>[0];
  const schemas = new RequestSchemas();
  schemas.load(document);
  const pipe = new WireValidationPipe(schemas);
  const result: Record<string, number> = {};
  for (const [file, name, body] of bodies) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const metatype = (require(join(root, file)) as Record<string, new () => unknown>)[name];
    const metadata = { type: 'body' as const, metatype, data: undefined };
    const rounds: number[] = [];
    for (let round = 0; round < 15; round++) {
      const runs = 2_000;
      const started = performance.now();
      for (let i = 0; i < runs; i++) await pipe.transform(body(), metadata);
      rounds.push(((performance.now() - started) * 1000) / runs);
    }
    result[name] = Number(Math.min(...rounds).toFixed(2));
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

void main().then(() => process.exit(0));
