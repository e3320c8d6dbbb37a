import 'reflect-metadata';
import { Agent, request } from 'node:http';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { AccountAdminService } from '../../src/accounts/account-admin.service';
import { AccountUpdateQueueService } from '../../src/refresh/account-update-queue.service';
import { ApiKeyService } from '../../src/auth/api-key.service';
import { createHttpApp } from '../../src/http-app';
import { benchEnvironment, numberFlag, report, startWorker } from './harness';

interface Call {
  method: 'GET' | 'POST';
  path: string;
  body?: () => unknown;
}

/** Sends `total` requests with `concurrency` in flight over keep-alive connections; returns requests per second. */
async function throughput(port: number, token: string, call: Call, total: number, concurrency: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  let sent = 0;
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const payload = call.body ? JSON.stringify(call.body()) : undefined;
      const req = request(
        {
          port,
          path: call.path,
          method: call.method,
          agent,
          headers: { Authorization: `Bearer ${token}`, ...(payload ? { 'Content-Type': 'application/json' } : {}) },
        },
        (res) => {
          res.resume();
          res.on('end', () => (res.statusCode && res.statusCode < 300 ? resolve() : reject(new Error(`${call.path} → ${res.statusCode}`))));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (sent++ < total) await once();
    }),
  );
  agent.destroy();
  return total / ((performance.now() - started) / 1000);
}

/**
 * `npm run bench:reads [-- --accounts 200 --requests 2000 --concurrency 16]`: requests per second of the read
 * operations against stored accounts, each as a ratio to `/health` measured in the same run (the same HTTP
 * stack with one trivial PostgreSQL and Redis round trip).
 */
async function main(): Promise<void> {
  const accounts = numberFlag('accounts', 200);
  const total = numberFlag('requests', 2000);
  const concurrency = numberFlag('concurrency', 16);
  const env = await benchEnvironment('reads', 1000, { API_KEY_RATE_LIMIT_PER_MINUTE: '1000000' });
  const app = await createHttpApp(env.config);
  await app.listen(0, '127.0.0.1');
  const worker = await startWorker(env.config);
  try {
    const port = (app.getHttpServer().address() as AddressInfo).port;
    await app.get(AccountAdminService).ensureAccount(1);
    const { secret } = await app.get(ApiKeyService).create({ accountId: 1, name: 'bench' });
    // As the operator's CLI queues them: a request's updates would count against its account's platform share.
    for (let id = 1; id <= accounts; id++) await app.get(AccountUpdateQueueService).queueTrusted({ id: { accountId: id } }, false);
    const dataSource = app.get(DataSource);
    for (;;) {
      const [{ done }] = await dataSource.query(`SELECT count(*)::int AS done FROM accounts WHERE last_queue_status = 'completed'`);
      if (done >= accounts) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const appIds: number[] = (await dataSource.query('SELECT DISTINCT app_id FROM badges WHERE app_id IS NOT NULL LIMIT 100')).map(
      (r: { app_id: number }) => r.app_id,
    );
    const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)];
    const ids = Array.from({ length: accounts }, (_, i) => i + 1);
    const calls: [string, Call][] = [
      ['GET /health (baseline)', { method: 'GET', path: '/health' }],
      ['account.getInfo', { method: 'POST', path: '/v1/account.getInfo', body: () => ({ id: { accountId: pick(ids) } }) }],
      ['account.getBadgeStats', { method: 'POST', path: '/v1/account.getBadgeStats', body: () => ({ id: { accountId: pick(ids) } }) }],
      ['app.listBadges', { method: 'POST', path: '/v1/app.listBadges', body: () => ({ appId: pick(appIds) }) }],
      ['stats.getStats', { method: 'POST', path: '/v1/stats.getStats' }],
      ['leaderboard.listBadges', { method: 'POST', path: '/v1/leaderboard.listBadges' }],
      [
        'leaderboard.getAccountLeaderboard',
        { method: 'POST', path: '/v1/leaderboard.getAccountLeaderboard', body: () => ({ leaderboard: 'xp', start: 1, end: 50 }) },
      ],
      ['account.listBadges', { method: 'POST', path: '/v1/account.listBadges', body: () => ({ id: { accountId: pick(ids) } }) }],
    ];
    const rows: Record<string, string>[] = [];
    let baseline = 0;
    for (const [name, call] of calls) {
      await throughput(port, secret, call, Math.min(200, total), concurrency); // warm-up
      const perSecond = await throughput(port, secret, call, total, concurrency);
      baseline ||= perSecond;
      rows.push({ operation: name, perSecond: perSecond.toFixed(0), ratio: `${(perSecond / baseline).toFixed(2)}x baseline` });
    }
    report(`reads over ${accounts} stored accounts (${total} requests, concurrency ${concurrency})`, rows);
  } finally {
    await worker.close();
    await app.close();
    await env.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
