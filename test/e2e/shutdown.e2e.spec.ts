import { ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { freePort } from '../support/ports';
import { clearRedisPrefix, startTestApp, TestContext } from '../support/test-app';
import { dropDatabase } from '../../src/database/ensure-database';
import { commandOf, environOf } from '../support/entrypoints';

describe('graceful shutdown', () => {
  it('should end open event streams so the API stops promptly', async () => {
    const ctx = await startTestApp('shutdown');
    await ctx.app.listen(0, '127.0.0.1');
    const port = (ctx.app.getHttpServer().address() as AddressInfo).port;
    // The stream is open once its first event has arrived (a fixed wait was too short on a loaded machine).
    let opened!: () => void;
    const snapshot = new Promise<void>((resolve) => (opened = resolve));
    const ended = new Promise<string>((resolve, reject) => {
      const req = request({ port, host: '127.0.0.1', path: '/v1/stats.subscribe' }, (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
          if (body.includes('event: stats-snapshot')) opened();
        });
        res.on('end', () => resolve(body));
      });
      req.on('error', reject);
      req.end();
    });
    await snapshot;
    const started = Date.now();
    await ctx.app.close();
    const body = await ended;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(body).toContain('event: stats-snapshot');
    await clearRedisPrefix(ctx.config.redisPrefix);
    await dropDatabase(ctx.config.databaseUrl);
  });
});

/** Pid → parent pid of every process, from /proc (Linux). */
function parentPids(): Map<number, number> {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name may hold spaces and parentheses: the fields after the last ')' are fixed.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while the list was read.
    }
  }
  return parents;
}

function descendants(pid: number): number[] {
  const parents = parentPids();
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of parents) {
      if (ppid !== parent) continue;
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

/** Running, not a zombie waiting for its (possibly gone) parent to reap it. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/**
 * `npm start` is npm → node start.js → (API, worker). A signal to npm must take the whole tree down within a
 * few seconds: the script `exec`s node so no shell swallows what npm forwards, and start.ts passes it on.
 */
describe('npm start', () => {
  let ctx: TestContext;
  let npm: ChildProcess | null = null;

  beforeAll(async () => {
    ctx = await startTestApp('npmstart');
  });
  afterAll(async () => {
    // Whatever a failed test left behind: the whole process group npm leads.
    if (npm?.pid) {
      try {
        process.kill(-npm.pid, 'SIGKILL');
      } catch {
        // Already gone, as it should be.
      }
    }
    await ctx.close();
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'should leave no process behind when npm gets %s',
    async (signal) => {
      const [port, simulatorPort] = [await freePort(), await freePort()];
      npm = spawn('npm', ['start'], {
        cwd: join(__dirname, '..', '..'),
        env: {
          ...process.env,
          GLIBC_TUNABLES: '', // whatever this machine tunes: the children's setting is start.js's
          PORT: String(port),
          SIMULATOR_PORT: String(simulatorPort),
          DATABASE_URL: ctx.config.databaseUrl,
          REDIS_URL: ctx.config.redisUrl,
          REDIS_PREFIX: ctx.config.redisPrefix,
          LOG_LEVEL: 'warn',
        },
        stdio: 'ignore',
        detached: true,
      });
      const pid = npm.pid as number;
      const deadline = Date.now() + 120_000;
      // Up when the API answers and both children run under start.js (npm → start.js → api, worker).
      for (;;) {
        const healthy = await fetch(`http://127.0.0.1:${port}/health`).then(
          (res) => res.ok,
          () => false,
        );
        if (healthy && descendants(pid).length >= 3) break;
        if (Date.now() > deadline || !isRunning(pid)) throw new Error('npm start did not come up');
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      await new Promise((resolve) => setTimeout(resolve, 500)); // the worker finishes booting
      const tree = [pid, ...descendants(pid)];
      // start.js starts both with malloc's huge pages (huge-pages.ts); npm itself was started without.
      const children = tree.filter((member) => /dist\/src\/(main|worker)\.js/.test(commandOf(member)));
      expect(children).toHaveLength(2);
      for (const child of children) expect(environOf(child).GLIBC_TUNABLES).toBe('glibc.malloc.hugetlb=1');
      process.kill(pid, signal);
      const stopBy = Date.now() + 10_000;
      while (tree.some(isRunning) && Date.now() < stopBy) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(tree.filter(isRunning)).toEqual([]);
    },
    150_000,
  );
});
