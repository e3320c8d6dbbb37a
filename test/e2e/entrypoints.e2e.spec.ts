import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { freePort } from '../support/ports';
import { join } from 'node:path';
import { GET_THE_STORES } from '../../src/preflight';
import { startTestApp, TestContext } from '../support/test-app';
import { entrypoint, environOf } from '../support/entrypoints';

const root = join(__dirname, '..', '..');

/** Runs an entrypoint from source as its own process; resolves with its exit code and every stdout line. */
function runEntrypoint(
  file: string,
  env: Record<string, string>,
): { child: ChildProcess; done: Promise<{ code: number | null; lines: string[] }> } {
  const child = spawn(process.execPath, [entrypoint(file)], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (chunk) => (out += chunk));
  child.stderr?.on('data', (chunk) => (out += chunk));
  const done = new Promise<{ code: number | null; lines: string[] }>((resolve) =>
    child.once('exit', (code) => resolve({ code, lines: out.split('\n').filter(Boolean) })),
  );
  return { child, done };
}

/** A port nothing listens on: a store that is down. */
const closedPort = freePort;

function parseAll(lines: string[]): Record<string, unknown>[] {
  return lines.map((line) => {
    try {
      return JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new Error(`not a JSON log line: ${line.slice(0, 300)}`);
    }
  });
}

/** The API entrypoint as its own process, with the simulator it embeds when no platform key is set. */
describe('the API process', () => {
  let ctx: TestContext;
  let api: ChildProcess;
  let port: number;
  let simulatorPort: number;

  beforeAll(async () => {
    // Only for its fresh database and Redis prefix; the process under test opens its own connections.
    ctx = await startTestApp('entry');
    [port, simulatorPort] = [await freePort(), await freePort()];
  });
  afterAll(async () => {
    if (api?.exitCode === null) api.kill('SIGKILL');
    await ctx.close();
  });

  it('should serve health, docs and the embedded simulator, and stop cleanly on SIGTERM', async () => {
    api = spawn(process.execPath, [entrypoint('main.ts')], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(port),
        SIMULATOR_PORT: String(simulatorPort),
        DATABASE_URL: ctx.config.databaseUrl,
        REDIS_URL: ctx.config.redisUrl,
        REDIS_PREFIX: ctx.config.redisPrefix,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // What the process said, so a boot that never becomes healthy fails with its reason rather than `false`.
    let output = '';
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
    api.stdout?.on('data', keep);
    api.stderr?.on('data', keep);
    // Generous: the API boots from TypeScript sources, and the machine may be running a second test run.
    const deadline = Date.now() + 90_000;
    let healthy = false;
    while (!healthy && Date.now() < deadline && api.exitCode === null) {
      healthy = await fetch(`http://127.0.0.1:${port}/health`).then(
        (res) => res.ok,
        () => false,
      );
      if (!healthy) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect({ healthy, exitCode: api.exitCode, output }).toEqual(expect.objectContaining({ healthy: true }));
    expect((await fetch(`http://127.0.0.1:${port}/docs/`)).status).toBe(200);
    const summaries = await fetch(`http://127.0.0.1:${simulatorPort}/ISteamUser/GetPlayerSummaries/v2/?steamids=76561197960265729`);
    const body = (await summaries.json()) as { response: { players: unknown[] } };
    expect(body.response.players).toHaveLength(1);
    // The entrypoint closes the application and exits 0 on SIGTERM.
    const exited = new Promise((resolve) => api.once('exit', (code, signal) => resolve(code ?? signal)));
    api.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('timeout'), 10_000))]);
    expect(code).toBe(0);
  }, 120_000);

  it('should serve from API_PROCESSES processes on one port, replace one that dies, and stop all of them on SIGTERM', async () => {
    const clusterPort = await freePort();
    const platform = await closedPort(); // no embedded simulator with several processes; reads need no platform
    const primary = spawn(process.execPath, [entrypoint('main.ts')], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(clusterPort),
        PLATFORM_API_URL: `http://127.0.0.1:${platform}`,
        API_PROCESSES: '2',
        DATABASE_URL: ctx.config.databaseUrl,
        REDIS_URL: ctx.config.redisUrl,
        REDIS_PREFIX: ctx.config.redisPrefix,
        LOG_LEVEL: 'warn',
      },
      stdio: 'ignore',
    });
    try {
      const deadline = Date.now() + 90_000;
      let healthy = 0;
      // Both servers up: every answer comes from one of the primary's two children.
      while (healthy < 20 && Date.now() < deadline) {
        const ok = await fetch(`http://127.0.0.1:${clusterPort}/health`, { headers: { Connection: 'close' } }).then(
          (res) => res.ok,
          () => false,
        );
        healthy = ok ? healthy + 1 : 0;
        if (!ok) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(healthy).toBe(20);
      const childrenOfPrimary = () =>
        readdirSync('/proc').filter((entry) => {
          if (!/^\d+$/.test(entry)) return false;
          try {
            const [state, ppid] = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ');
            return Number(ppid) === primary.pid && state !== 'Z';
          } catch {
            return false;
          }
        });
      const children = childrenOfPrimary();
      expect(children).toHaveLength(2);
      // Each asks malloc for huge pages (huge-pages.ts), though the primary was started without.
      for (const child of children) expect(environOf(child).GLIBC_TUNABLES).toBe('glibc.malloc.hugetlb=1');
      // One dies: the other serves on, and the primary forks a replacement.
      process.kill(Number(children[0]), 'SIGKILL');
      // A connection handed to the process as it died may be lost; the ones after it are answered by the other.
      const t0 = Date.now();
      let served = 0;
      while (served < 5 && Date.now() - t0 < 10_000) {
        const status = await fetch(`http://127.0.0.1:${clusterPort}/health`, {
          headers: { Connection: 'close' },
          signal: AbortSignal.timeout(2000),
        }).then(
          (res) => res.status,
          () => 0,
        );
        served = status === 200 ? served + 1 : 0;
      }
      expect(served).toBe(5);
      const replacedBy = Date.now() + 30_000;
      let current = childrenOfPrimary();
      while (!(current.length === 2 && !current.includes(children[0])) && Date.now() < replacedBy) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        current = childrenOfPrimary();
      }
      expect(current).toHaveLength(2);
      expect(current).toContain(children[1]);
      children.push(...current.filter((pid) => !children.includes(pid)));
      const exited = new Promise((resolve) => primary.once('exit', (code, signal) => resolve(code ?? signal)));
      primary.kill('SIGTERM');
      const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('timeout'), 15_000))]);
      expect(code).toBe(0);
      expect(children.filter((pid) => existsSync(`/proc/${pid}`))).toEqual([]);
    } finally {
      if (primary.exitCode === null) primary.kill('SIGKILL');
    }
  }, 240_000);

  it('should stop boot with one JSON line naming DATABASE_URL, masked, when PostgreSQL is unreachable', async () => {
    const pgPort = await closedPort();
    const started = Date.now();
    const { done } = runEntrypoint('main.ts', {
      DATABASE_URL: `postgres://app:hunter2secret@127.0.0.1:${pgPort}/badge_stats`,
      REDIS_PREFIX: ctx.config.redisPrefix,
      PORT: '0',
    });
    const { code, lines } = await done;
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(20_000);
    const entries = parseAll(lines);
    const errors = entries.filter((entry) => entry.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      context: 'boot',
      msg: 'PostgreSQL is unreachable; exiting',
      variable: 'DATABASE_URL',
      url: `postgres://***@127.0.0.1:${pgPort}/badge_stats`,
      address: `127.0.0.1:${pgPort}`,
      error: expect.stringContaining('ECONNREFUSED'),
    });
    expect(lines.join('\n')).not.toContain('hunter2secret');
  }, 30_000);

  it('should stop boot with one JSON line naming REDIS_URL, masked, when Redis is unreachable', async () => {
    const redisPort = await closedPort();
    for (const file of ['main.ts', 'worker.ts']) {
      const { done } = runEntrypoint(file, {
        DATABASE_URL: ctx.config.databaseUrl,
        REDIS_URL: `redis://:hunter2secret@127.0.0.1:${redisPort}`,
        REDIS_PREFIX: ctx.config.redisPrefix,
        PORT: '0',
      });
      const { code, lines } = await done;
      expect({ file, code }).toEqual({ file, code: 1 });
      const errors = parseAll(lines).filter((entry) => entry.level === 'error');
      expect(errors).toEqual([
        expect.objectContaining({
          msg: 'Redis is unreachable; exiting',
          variable: 'REDIS_URL',
          url: `redis://***@127.0.0.1:${redisPort}`,
          address: `127.0.0.1:${redisPort}`,
          error: expect.stringContaining('ECONNREFUSED'),
        }),
      ]);
      expect(lines.join('\n')).not.toContain('hunter2secret');
    }
  }, 40_000);

  it('should have `npm start` check both stores first and print the line that gets them when one is missing', async () => {
    const [pgPort, redisPort] = [await closedPort(), await closedPort()];
    const onlyRedis = await runEntrypoint('start.ts', {
      DATABASE_URL: ctx.config.databaseUrl,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    }).done;
    expect(onlyRedis.code).toBe(1);
    expect(onlyRedis.lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Redis is unreachable at 127\\.0\\.0\\.1:${redisPort} \\(REDIS_URL=redis://127\\.0\\.0\\.1:${redisPort}\\): .*ECONNREFUSED`,
        ),
      ),
      GET_THE_STORES,
    ]);
    const both = await runEntrypoint('start.ts', {
      DATABASE_URL: `postgres://app:hunter2secret@127.0.0.1:${pgPort}/badge_stats`,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    }).done;
    expect(both.code).toBe(1);
    expect(both.lines).toEqual([
      expect.stringContaining(
        `PostgreSQL is unreachable at 127.0.0.1:${pgPort} (DATABASE_URL=postgres://***@127.0.0.1:${pgPort}/badge_stats)`,
      ),
      expect.stringContaining(`Redis is unreachable at 127.0.0.1:${redisPort}`),
      'Start PostgreSQL and Redis with: docker compose up -d postgres redis   (or on Debian/Ubuntu: sudo apt-get install -y postgresql redis-server)',
    ]);
  }, 40_000);

  it('should stop boot with one JSON line naming a bad variable', async () => {
    const { done } = runEntrypoint('main.ts', { PORT: 'abc' });
    const { code, lines } = await done;
    expect(code).toBe(1);
    expect(parseAll(lines)).toEqual([expect.objectContaining({ level: 'error', msg: 'configuration error', variable: 'PORT' })]);
  }, 20_000);
});
