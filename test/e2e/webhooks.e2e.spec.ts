import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import Redis from 'ioredis';
import { ActivityRecorder } from '../../src/activity/activity-recorder';
import { MaintenanceAdmin } from '../../src/maintenance/maintenance-admin.service';
import { CLI_ACTOR } from '../../src/staff/audit-log';
import { WebhookDeliveryPruner } from '../../src/webhooks/webhook-delivery-pruner';
import { PipelineContext, startPipeline } from '../support/pipeline';
import { REDIS_URL } from '../support/test-app';

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  answered: number;
}

/** A local receiver: each path answers from its own script (a status per request, the last one repeated). */
class Receiver {
  readonly requests: Received[] = [];
  private readonly scripts = new Map<string, number[]>();
  private server!: Server;
  port = 0;

  script(path: string, statuses: number[]): string {
    this.scripts.set(path, statuses);
    return `http://127.0.0.1:${this.port}${path}`;
  }

  at(path: string): Received[] {
    return this.requests.filter((request) => request.path === path);
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = req.url ?? '/';
        const script = this.scripts.get(path) ?? [404];
        const seen = this.at(path).length;
        const status = script[Math.min(seen, script.length - 1)];
        this.requests.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered: status });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The receiver's check, as docs/webhooks.md gives it. */
function verify(secret: string, request: Received): boolean {
  const timestamp = String(request.headers['webhook-timestamp']);
  const expected = `v1=${createHmac('sha256', secret).update(`${timestamp}.${request.body}`).digest('hex')}`;
  const given = String(request.headers['webhook-signature']);
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, ms = 15_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('signed webhooks', () => {
  let ctx: PipelineContext;
  const receiver = new Receiver();
  let owner: string;
  let ownerKey: string;
  let keyId: string;
  let stranger: string;

  const call = (operation: string, token: string, body: object) =>
    ctx.http().post(`/v1/${operation}`).set('Authorization', `Bearer ${token}`).send(body);

  beforeAll(async () => {
    await receiver.start();
    ctx = await startPipeline('webhooks', {
      env: {
        WEBHOOK_ALLOW_LOOPBACK: 'true',
        WEBHOOK_BACKOFF_MS: '100',
        WEBHOOK_ATTEMPTS: '20',
        WEBHOOK_DISABLE_AFTER_MS: '1500',
        WEBHOOK_TIMEOUT_MS: '2000',
        WEBHOOK_MAX_PER_APP: '5',
      },
    });
    owner = (await ctx.session(1)).sessionToken;
    ownerKey = await ctx.apiKey(1);
    keyId = `key_${ownerKey.split('_')[1]}`;
    stranger = (await ctx.session(2)).sessionToken;
    await ctx.startWorker();
  });
  afterAll(async () => {
    await ctx.close();
    await receiver.close();
  });

  it('should deliver an update to a receiver that fails twice exactly once by id, signed, with the attempts logged', async () => {
    const created = await call('account.createWebhook', owner, {
      keyId,
      url: receiver.script('/flaky', [500, 500, 200]),
      events: ['account.updated'],
      accountIds: [5],
    }).expect(200);
    const { webhook, secret } = created.body as { webhook: { webhookId: string; status: string }; secret: string };
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(webhook).toMatchObject({ keyId, events: ['account.updated'], accountIds: [5], status: 'enabled', disabledReason: null });

    await call('account.queueUpdate', ownerKey, { id: { accountId: 5 } }).expect(204);
    await ctx.waitForCompletion(5, ownerKey);
    await until('the successful attempt', () => receiver.at('/flaky').some((request) => request.answered === 200));
    // A fact heard again (here: the completed run's message published once more) makes no second delivery.
    const redis = new Redis(REDIS_URL);
    try {
      const progress = JSON.parse((await redis.get(`${ctx.config.redisPrefix}:progress:5`))!);
      await redis.publish(
        `${ctx.config.redisPrefix}:events:account`,
        JSON.stringify({ type: 'progress', accountId: 5, status: 'completed', progress }),
      );
    } finally {
      await redis.quit();
    }
    await sleep(1000);

    const attempts = receiver.at('/flaky');
    expect(attempts.map((request) => request.answered)).toEqual([500, 500, 200]);
    const ids = new Set(attempts.map((request) => request.headers['webhook-event-id']));
    expect(ids.size).toBe(1);
    expect(new Set(attempts.map((request) => request.body)).size).toBe(1);
    for (const request of attempts) {
      expect(verify(secret, request)).toBe(true);
      expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    }
    expect(verify('whsec_not-the-secret', attempts[0])).toBe(false);
    const event = JSON.parse(attempts[0].body);
    expect(event).toMatchObject({ id: [...ids][0], type: 'account.updated', data: { accountId: 5, status: 'completed' } });

    const log = await call('account.listWebhookDeliveries', owner, { webhookId: webhook.webhookId }).expect(200);
    expect(log.body.deliveries).toEqual([
      expect.objectContaining({
        eventId: event.id,
        eventType: 'account.updated',
        status: 'succeeded',
        attempts: 3,
        responseCode: 200,
        lastError: null,
      }),
    ]);
  });

  it('should sign with the rotated secret only, and send activity to the endpoints that asked for it', async () => {
    const [flaky] = (await call('account.listWebhooks', owner, { keyId }).expect(200)).body.webhooks as { webhookId: string }[];
    const old = receiver.at('/flaky')[0];
    const rotated = await call('account.rotateWebhookSecret', owner, { webhookId: flaky.webhookId }).expect(200);
    await call('account.updateWebhook', owner, { webhookId: flaky.webhookId, accountIds: [5, 6] }).expect(200);
    await call('account.queueUpdate', ownerKey, { id: { accountId: 6 } }).expect(204);
    await ctx.waitForCompletion(6, ownerKey);
    const delivered = await until('the delivery for account 6', () =>
      receiver.at('/flaky').find((r) => JSON.parse(r.body).data.accountId === 6),
    );
    expect(verify(rotated.body.secret, delivered)).toBe(true);
    expect(verify(rotated.body.secret, old)).toBe(false);

    const activity = await call('account.createWebhook', owner, {
      keyId,
      url: receiver.script('/activity', [204]),
      events: ['activity.emitted'],
    }).expect(200);
    const [{ id }] = await ctx.dataSource.query(
      `INSERT INTO activity_events (account_id, event_type, occurred_at, data) VALUES (5, 'level_milestone', now(), $1) RETURNING id`,
      [JSON.stringify({ level: { previous: 9, current: 10 } })],
    );
    await ctx.app.get(ActivityRecorder).announce([String(id)]);
    const received = await until('the activity event', () => receiver.at('/activity')[0]);
    expect(verify(activity.body.secret, received)).toBe(true);
    expect(JSON.parse(received.body)).toMatchObject({
      type: 'activity.emitted',
      data: { accountId: 5, eventType: 'level_milestone', level: { previous: 9, current: 10 } },
    });
    // Only endpoints that asked for it: the account.updated endpoint got nothing of it.
    expect(receiver.at('/flaky').filter((r) => JSON.parse(r.body).type !== 'account.updated')).toEqual([]);
  });

  it('should disable an endpoint that keeps failing, say why, and send it nothing more', async () => {
    const created = await call('account.createWebhook', owner, {
      keyId,
      url: receiver.script('/down', [503]),
      events: ['maintenance.changed'],
    }).expect(200);
    const webhookId = created.body.webhook.webhookId as string;
    const maintenance = ctx.app.get(MaintenanceAdmin);
    const broadcast = await maintenance.create(CLI_ACTOR, { title: 'Upgrade', message: 'Soon' });

    const disabled = await until('the endpoint to be disabled', async () => {
      const listed = (await call('account.listWebhooks', owner, { keyId }).expect(200)).body.webhooks as Record<string, unknown>[];
      return listed.find((hook) => hook.webhookId === webhookId && hook.status === 'disabled');
    });
    expect(disabled.disabledReason).toMatch(/^Every delivery attempt failed since .+ \(last: HTTP 503\); disabled\.$/);
    expect(disabled.disabledAt).toEqual(expect.any(String));
    const first = JSON.parse(receiver.at('/down')[0].body);
    expect(first).toMatchObject({
      type: 'maintenance.changed',
      data: { items: [expect.objectContaining({ uid: broadcast.uid, title: 'Upgrade' })] },
    });

    const sent = receiver.at('/down').length;
    expect(sent).toBeGreaterThanOrEqual(2);
    await maintenance.update(CLI_ACTOR, broadcast.uid, { enabled: false });
    await sleep(1500);
    expect(receiver.at('/down')).toHaveLength(sent);
    const log = await call('account.listWebhookDeliveries', owner, { webhookId }).expect(200);
    expect(log.body.deliveries).toEqual([
      expect.objectContaining({ eventId: first.id, status: 'cancelled', attempts: sent, responseCode: 503, lastError: 'HTTP 503' }),
    ]);

    // Its owner turns it back on: the next change reaches it (answered 503 again, so it is logged as pending).
    const resumed = await call('account.updateWebhook', owner, { webhookId, enabled: true }).expect(200);
    expect(resumed.body.webhook).toMatchObject({ status: 'enabled', disabledReason: null, failingSince: null });
    await maintenance.update(CLI_ACTOR, broadcast.uid, { enabled: true });
    await until('a delivery after re-enabling', () => receiver.at('/down').length > sent);
    await call('account.updateWebhook', owner, { webhookId, enabled: false }).expect(200);
    // The log pages newest first.
    const newest = (await call('account.listWebhookDeliveries', owner, { webhookId, limit: 1 }).expect(200)).body;
    expect(newest.deliveries).toHaveLength(1);
    expect(newest.deliveries[0].eventId).not.toBe(first.id);
    const older = (await call('account.listWebhookDeliveries', owner, { webhookId, limit: 1, before: newest.nextBefore }).expect(200)).body;
    expect(older.deliveries.map((d: { eventId: string }) => d.eventId)).toEqual([first.id]);
    expect(older.nextBefore).toBeUndefined();
  });

  it('should keep endpoints to their owner: another account can neither see nor change them', async () => {
    const [hook] = (await call('account.listWebhooks', owner, { keyId }).expect(200)).body.webhooks as { webhookId: string; url: string }[];
    const webhookId = hook.webhookId;
    for (const [operation, body] of [
      ['account.listWebhooks', { keyId }],
      ['account.createWebhook', { keyId, url: 'https://example.com/hook', events: ['maintenance.changed'] }],
      ['account.updateWebhook', { webhookId, url: 'https://example.com/stolen' }],
      ['account.rotateWebhookSecret', { webhookId }],
      ['account.listWebhookDeliveries', { webhookId }],
      ['account.deleteWebhook', { webhookId }],
    ] as const) {
      const res = await call(operation, stranger, body);
      expect({ operation, status: res.status, type: res.headers['content-type'] }).toEqual({
        operation,
        status: 404,
        type: expect.stringContaining('application/problem+json'),
      });
      // API keys, even the owner's own, are refused: these are the account holder's operations.
      expect((await call(operation, ownerKey, body)).status).toBe(401);
    }
    const after = (await call('account.listWebhooks', owner, { keyId }).expect(200)).body.webhooks as { webhookId: string; url: string }[];
    expect(after.find((h) => h.webhookId === webhookId)).toMatchObject({ url: hook.url });
  });

  it('should refuse private addresses, plain http, and settings past their bounds', async () => {
    for (const url of [
      'http://example.com/hook',
      'https://10.0.0.5/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://192.168.1.10/hook',
      'https://[fd00::1]/hook',
      'https://[::ffff:10.0.0.1]/hook',
      // IPv4-compatible and IPv4-translated forms of loopback: not global unicast.
      'https://[::127.0.0.1]/hook',
      'https://[::7f00:1]/hook',
      'https://[::ffff:0:7f00:1]/hook',
      'https://[64:ff9b::a00:1]/hook',
      'ftp://example.com/hook',
      'https://user:secret@example.com/hook',
    ]) {
      const res = await call('account.createWebhook', owner, { keyId, url, events: ['maintenance.changed'] });
      expect({ url, status: res.status, location: res.body.errors?.[0]?.location }).toEqual({ url, status: 422, location: 'body.url' });
    }
    const noAccounts = await call('account.createWebhook', owner, { keyId, url: 'https://example.com/a', events: ['account.updated'] });
    expect(noAccounts.status).toBe(422);
    const tooMany = await call('account.createWebhook', owner, {
      keyId,
      url: 'https://example.com/a',
      events: ['account.updated'],
      accountIds: Array.from({ length: 101 }, (_, i) => i + 1),
    });
    expect(tooMany.status).toBe(422);
    // The app holds 3 endpoints; WEBHOOK_MAX_PER_APP is 5 here.
    for (let i = 0; i < 2; i++)
      await call('account.createWebhook', owner, { keyId, url: `https://example.com/${i}`, events: ['maintenance.changed'] }).expect(200);
    const over = await call('account.createWebhook', owner, { keyId, url: 'https://example.com/6', events: ['maintenance.changed'] });
    expect(over.status).toBe(409);
  });

  it('should prune settled delivery rows past WEBHOOK_DELIVERY_RETENTION_DAYS, keeping recent ones and pending ones', async () => {
    // A developer app of its own: the first one holds WEBHOOK_MAX_PER_APP endpoints by now.
    const prunedKeyId = `key_${(await ctx.apiKey(1)).split('_')[1]}`;
    const created = await call('account.createWebhook', owner, {
      keyId: prunedKeyId,
      url: receiver.script('/pruned', [204]),
      events: ['maintenance.changed'],
    });
    expect(created.status).toBe(200);
    const webhookId = created.body.webhook.webhookId as string;
    const days = ctx.config.webhooks.deliveryRetentionDays;
    // 2,500 settled rows past the retention (three batches), one pending row as old, and two recent settled rows.
    await ctx.dataSource.query(
      `INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, body, status, created_at)
       SELECT $1, 'evt_old_' || n, 'maintenance.changed', '{}', CASE WHEN n = 7 THEN 'pending' ELSE 'succeeded' END,
              now() - ($2 + 1) * interval '1 day'
         FROM generate_series(1, 2500) n`,
      [webhookId, days],
    );
    await ctx.dataSource.query(
      `INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, body, status, created_at)
       VALUES ($1, 'evt_new_1', 'maintenance.changed', '{}', 'failed', now() - ($2 - 1) * interval '1 day'),
              ($1, 'evt_new_2', 'maintenance.changed', '{}', 'succeeded', now())`,
      [webhookId, days],
    );
    const pruner = ctx.worker!.get(WebhookDeliveryPruner);
    expect(await pruner.prune()).toBe(2499);
    const left = await ctx.dataSource.query(`SELECT event_id FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY delivery_id`, [
      webhookId,
    ]);
    expect(left.map((row: { event_id: string }) => row.event_id)).toEqual(['evt_old_7', 'evt_new_1', 'evt_new_2']);
    expect(await pruner.prune()).toBe(0);
    const listed = await call('account.listWebhookDeliveries', owner, { webhookId }).expect(200);
    expect(JSON.stringify(listed.body)).not.toContain('evt_old_1"');
  });
});
