import 'reflect-metadata';
import { closeSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
import { Client } from 'pg';
import { buildDist, freePort, readApiEnv, run, settled, startApi, stopApi } from './api-process';
import { numberFlag, textFlag } from './harness';
import { connections, once } from './load';
import { LoggedPlan, loggedPlans, renderPlan, scansWithoutIndex } from './plan-text';
import { fixtures, readCalls, WARMUP_OFFSET } from './read-calls';

/**
 * `npm run bench:plans -- --database seed_1m --accounts 1000000 [--requests 5 --out docs/plans-1m.md --server-log PATH]`
 *
 * The plans PostgreSQL really ran for each read operation of bench:scale over a seeded population: the API (built as
 * `npm start` runs it, alone, in a child process) connects with `auto_explain` loaded for its sessions (PGOPTIONS:
 * every statement, with ANALYZE and BUFFERS, written as JSON to the server's log), each operation is sent once to
 * build what it builds lazily and then --requests times one at a time, and the plans the server logged meanwhile are
 * read back from its log file (Debian's `/var/log/postgresql/postgresql-<major>-main.log` unless --server-log says
 * otherwise) and printed as Markdown: per operation, each distinct statement with how often it ran, its median
 * duration and the plan of its slowest run (a cold read's). A scan of a population table that no index condition
 * bounds is listed first. What the API runs in the background (a shared answer refreshed ahead of time) is filed
 * under the operation it ran beside. The generic-or-custom plan choice is PostgreSQL's own, as in production: the
 * statements are the prepared ones the API sends. Not part of `npm test`: it needs a seeded database and the server's
 * log.
 */
const EXPLAIN_OPTIONS = [
  'session_preload_libraries=auto_explain',
  'auto_explain.log_min_duration=0',
  'auto_explain.log_analyze=on',
  'auto_explain.log_buffers=on',
  'auto_explain.log_format=json',
];

/** The tables whose request-path reads must be bounded by an index at any population. */
const POPULATION_TABLES = new Set([
  'accounts',
  'account_badges',
  'account_apps',
  'account_friends',
  'account_updates',
  'inventory_items',
  'activity_events',
  'groups',
]);

/** The log from `offset` on (from its start if it was rotated meanwhile). */
function readFrom(path: string, offset: number): string {
  const size = statSync(path).size;
  if (size < offset) offset = 0;
  const buffer = Buffer.alloc(size - offset);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, offset);
  } finally {
    closeSync(fd);
  }
  return buffer.toString('utf8');
}

async function defaultServerLog(databaseUrl: string): Promise<string> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const { rows } = await db.query<{ major: number }>(`SELECT current_setting('server_version_num')::int / 10000 AS major`);
  await db.end();
  return `/var/log/postgresql/postgresql-${rows[0].major}-main.log`;
}

/** One operation's statements: each distinct text once, with its runs' median and its slowest run's plan. */
function operationSection(name: string, plans: LoggedPlan[]): string {
  const byText = new Map<string, LoggedPlan[]>();
  for (const plan of plans) byText.set(plan.query, [...(byText.get(plan.query) ?? []), plan]);
  const parts = [`### ${name}\n`];
  if (!byText.size) parts.push('No statement: the answer came from the API’s memory or Redis.\n');
  for (const [query, runs] of byText) {
    const durations = runs.map((run) => run.ms).sort((a, b) => a - b);
    const slowest = runs.reduce((a, b) => (b.ms > a.ms ? b : a));
    const text = query.replace(/\s+/g, ' ').trim();
    parts.push(
      `${runs.length} run(s), median ${durations[Math.floor(durations.length / 2)].toFixed(2)} ms, slowest ${slowest.ms.toFixed(2)} ms:` +
        ` \`${text.length > 240 ? `${text.slice(0, 240)}…` : text}\`\n\n\`\`\`\n${renderPlan(slowest.plan).join('\n')}\n\`\`\`\n`,
    );
  }
  return parts.join('\n');
}

async function main(): Promise<void> {
  const accounts = numberFlag('accounts', 100_000);
  const requests = numberFlag('requests', 5);
  const name = textFlag('database') ?? `bench_scale_${accounts}`;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error('--database must be a lower-case PostgreSQL identifier');
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${name}`;
  const serverLog = textFlag('server-log') ?? (await defaultServerLog(databaseUrl));
  try {
    statSync(serverLog);
  } catch {
    throw new Error(`cannot read PostgreSQL's log at ${serverLog}: name it with --server-log`);
  }
  const port = await freePort();
  const env = readApiEnv({ databaseUrl, redisPrefix: textFlag('redis-prefix') ?? name, port, seed: 1, accounts });
  env.API_PROCESSES = '1';
  const token = (await run('src/cli.ts', ['api-key', 'create', '--account', '1', '--name', 'bench-plans'], env)).trim().split('\n').pop()!;
  env.PGOPTIONS = EXPLAIN_OPTIONS.map((option) => `-c ${option}`).join(' ');
  const calls = readCalls(accounts, await fixtures(databaseUrl)).filter((call) => call.method === 'POST' && call.concurrency !== 1);
  await buildDist();
  const api = await startApi(env, port);
  await settled(api);
  const pool = connections(port, 1);
  const sections: string[] = [];
  const unbounded: string[] = [];
  try {
    for (const call of calls) {
      await once({ ...call, body: call.body && ((i) => call.body!(WARMUP_OFFSET + i)) }, token, 0, 120_000, pool);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const from = statSync(serverLog).size;
      for (let i = 0; i < requests; i++) {
        const answer = await once(call, token, i, 30_000, pool);
        if (answer.status !== 200 && answer.status !== 204) throw new Error(`${call.name}: ${answer.status} ${answer.body ?? ''}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      const plans = loggedPlans(readFrom(serverLog, from)).filter((plan) => plan.database === name);
      sections.push(operationSection(call.name, plans));
      for (const plan of plans) for (const scan of scansWithoutIndex(plan.plan, POPULATION_TABLES)) unbounded.push(`${call.name}: ${scan}`);
      process.stderr.write(`  ${call.name}: ${plans.length} statements\n`);
    }
  } finally {
    await pool.destroy();
    await stopApi(api);
  }
  const unique = [...new Set(unbounded)];
  const summary = unique.length
    ? `Scans of a population table that no index bounds:\n\n${unique.map((line) => `- ${line}`).join('\n')}\n`
    : `No scan of ${[...POPULATION_TABLES].join(', ')} without an index condition.\n`;
  const markdown = [
    `# Request-path plans over ${accounts} accounts (\`${name}\`)\n`,
    `Written by \`npm run bench:plans -- --database ${name} --accounts ${accounts} --requests ${requests}\` on ` +
      `${new Date().toISOString().slice(0, 10)} (scripts/bench/plans.ts): the plans PostgreSQL logged (auto_explain, ANALYZE, ` +
      `BUFFERS) while the API served each read operation of bench:scale ${requests} times, one at a time. Per operation, ` +
      `each distinct statement with its runs' median and the plan of its slowest run; "read" buffers were not in ` +
      `PostgreSQL's shared buffers. Figures and context: performance.md.\n`,
    summary,
    ...sections,
  ].join('\n');
  const out = textFlag('out');
  if (out) writeFileSync(out, markdown);
  else process.stdout.write(markdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
