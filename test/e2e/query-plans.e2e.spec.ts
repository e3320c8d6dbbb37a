/**
 * Request-path index check (docs/performance-history.md): every SELECT / WITH (and the query of a DECLARE … CURSOR) the
 * API process runs while serving a routed POST operation is planned again with `enable_seqscan = off`. On the
 * small test population the planner then still shows whether any index can serve it: a Seq Scan left on
 * `accounts`, `account_badges`, `account_apps`, `account_friends` or `groups` means none can, and the statement would read
 * the whole table on every request once the tables hold millions of rows.
 *
 * With Seq Scans off the planner also walks a whole index rather than give up (a partial index whose predicate
 * `updated_at IS NOT NULL` the query implies, or an index whose order it wants), which is as much a whole-table
 * read; such a scan (no Index Cond, no Limit stopping it) is an offender too — unless it is only an artefact of
 * the small population: see `PlanChecker.check` (test/support/plan-checker.ts).
 *
 * Statements are recorded by wrapping TypeORM's PostgresQueryRunner, for the API's DataSource only (the worker
 * runs in this process with its own), and filed under the operation whose request context (the app's request id,
 * which the test chooses) they run in. Derived-state and rank rebuilds read whole tables on purpose and are not
 * request paths: they run outside any request (here, once before the operations, recorded apart as '#rebuild'),
 * so they are left out. A statement a request runs is checked even when a rebuild runs the same text.
 */
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { currentRequestId } from '../../src/common/logging/request-context';
import { rebuildDerivedState } from '../../src/derived/derived-state';
import { simulatorOAuthCode } from '../support/oauth';
import { simulatorAssertion } from '../support/openid';
import { PipelineContext, startPipeline } from '../support/pipeline';
import { PlanChecker, plannable } from '../support/plan-checker';

/** The X-Request-Id the test sends is this and the operation id. */
const REQUEST_PREFIX = 'queryplans:';

/** What the bodies need from the refreshed population. */
interface Fixture {
  caller: number;
  other: number;
  appId: number;
  badgeAppId: number;
  badgeId: number;
  classId: number;
  friendFrom: number;
  friendTo: number;
  /** A refreshed public account (its groups are listable). */
  publicAccount: number;
  refreshToken: string;
  /** The caller's developer app (its API key) and a webhook endpoint of it. */
  keyId: string;
  webhookId: string;
  /** A second developer app of the caller's, for the app writes (the first one's key makes the other calls). */
  spareKeyId: string;
  /** A fresh OpenID assertion from the simulator's provider (single use), and a session to end with logout. */
  assertion: Record<string, string>;
  signedInSession: string;
  /** The caller's OAuth connection (through the simulator's provider), a fresh code of the same provider account
   * for reconnecting it, and a second session of the caller's, for deleteSession. */
  connectionId: string;
  reconnectCode: string;
  spareSessionId: string;
}

type Credential = 'key' | 'session' | 'signedIn' | 'none';
interface Operation {
  body: (f: Fixture) => Record<string, unknown>;
  /** The credential sent: the caller's API key unless said otherwise. */
  as?: Credential;
  /** The refusal expected where no minimal body can succeed here (its reads run all the same). */
  status?: number;
}

const id = (accountId: number) => ({ id: { accountId } });
/** The operation of a table entry (`leaderboard.getAccountLeaderboard#app` → `leaderboard.getAccountLeaderboard`). */
const pathOf = (entry: string) => entry.split('#')[0];

/**
 * One minimal valid body per routed POST operation, each called once. The writes are included (their reads are
 * request paths like any other; their INSERT / UPDATE / DELETE statements are not planned) and run last, in this
 * order: badge.setTags, account.queueUpdate, account.refreshInventory, account.uploadImages (an empty list: it
 * reads none of the four tables), the webhook writes (deleteWebhook last of them), account.login, the developer-app writes (on a spare app),
 * account.logout (of a session of its own), account.refreshSession (it
 * revokes the session). Only the path a minimal body
 * takes is checked: per-app and per-badge boards, location filters, searches and deep rank windows take others.
 */
const OPERATIONS: Record<string, Operation> = {
  'account.compareBadges': { body: (f) => ({ accounts: [id(f.caller), id(f.other)] }) },
  // Every part of the comparison at once: a level match, a difference, filters and a name order.
  'account.compareBadges#difference': {
    body: (f) => ({
      accounts: [id(f.caller), id(f.other), id(f.friendFrom)],
      difference: { has: id(f.other), lacks: id(f.caller) },
      match: 'tupleLevel',
      ignore: ['steam', 'infinite'],
      excludeAppIds: [f.appId],
      ranges: [{ type: 'scarcity', min: 1 }],
      order: { by: 'name', direction: 'asc' },
    }),
  },
  'account.findFriendPath': { body: (f) => ({ from: id(f.friendFrom), to: id(f.friendTo) }) },
  'account.getBadgeHeatmap': { body: (f) => id(f.other) },
  'account.getBadgeStats': { body: (f) => id(f.other) },
  'account.getDataPoints': { body: (f) => id(f.other) },
  // A public, refreshed account (a private one is refused before any read).
  'account.getCraftingPlan': { body: (f) => ({ ...id(f.publicAccount), order: { by: 'costPerXp' } }) },
  'account.getDropsWorth': { body: (f) => id(f.publicAccount) },
  'account.getInfo': { body: (f) => id(f.other) },
  'account.getSettings': { body: () => ({}), as: 'session' },
  'account.getTrending': { body: () => ({ window: '7d' }) },
  'account.getViewStats': { body: (f) => id(f.other) },
  'account.listApps': { body: (f) => id(f.other) },
  'account.listBadges': { body: (f) => id(f.other) },
  'account.listCraftedLevels': { body: () => ({}) },
  'account.listFriends': { body: (f) => id(f.friendFrom) },
  'account.listInventorySets': { body: () => ({}) },
  'account.listLeaderboardHistory': { body: (f) => id(f.other) },
  'account.listOwnedBadges': { body: () => ({}) },
  'account.listOwnedGroups': { body: (f) => id(f.publicAccount) },
  'account.updateProgress': { body: (f) => id(f.other) },
  'account.listWebhooks': { body: (f) => ({ keyId: f.keyId }), as: 'session' },
  'account.listWebhookDeliveries': { body: (f) => ({ webhookId: f.webhookId }), as: 'session' },
  'activity.listAccountFeed': { body: (f) => ({ accountId: f.other }) },
  'activity.listGlobalFeed': { body: () => ({}) },
  'app.listBadges': { body: (f) => ({ appId: f.badgeAppId }) },
  'app.listOwners': { body: (f) => ({ appId: f.appId }) },
  'badge.getTags': { body: (f) => ({ badgeId: `bdg_${f.badgeId}` }) },
  'badge.listCrafters': { body: (f) => ({ badgeId: `bdg_${f.badgeId}` }) },
  'badge.listCheapest': { body: () => ({}) },
  'badge.listCheapest#app': { body: (f) => ({ appId: f.badgeAppId, minSetCost: 1 }) },
  'badge.listTags': { body: () => ({}) },
  'donate.getGoal': { body: () => ({}), as: 'none' },
  'item.findOwners': { body: (f) => ({ itemIds: [f.classId] }) },
  'leaderboard.getAccountLeaderboard': { body: () => ({ leaderboard: 'xp' }) },
  // Variants (`<operation>#<what>`): the per-app and per-badge boards are built on their first read, and a
  // location filter resolves scopes.
  'leaderboard.getAccountLeaderboard#app': { body: (f) => ({ leaderboard: 'app_playtime', app: { appId: f.appId } }) },
  'leaderboard.getAccountLeaderboard#badge': {
    body: (f) => ({ leaderboard: 'badge_highest_level', badge: { id: f.badgeAppId, isFoil: false } }),
  },
  'leaderboard.getAccountLeaderboard#location': { body: () => ({ leaderboard: 'badges', location: [{ country: 'Germany' }] }) },
  'leaderboard.getBucketLeaders': { body: () => ({ leaderboard: 'xp' }) },
  'leaderboard.getGroupLeaderboard': { body: () => ({ leaderboard: 'most_members' }) },
  'leaderboard.getGroupLeaderboard#deep': { body: () => ({ leaderboard: 'most_members', goToLeaderboardRank: 40 }) },
  'leaderboard.getChanges': { body: () => ({ leaderboard: 'xp', window: '7d', metric: 'score', direction: 'improvements' }) },
  'leaderboard.getLowestRanks': { body: () => ({ leaderboard: 'xp' }) },
  // The exports walk in batches of EXPORTS_BATCH (small here, see beforeAll): the sorted set, then the zero tail by keyset.
  'leaderboard.export': { body: () => ({ leaderboard: 'xp' }) },
  'leaderboard.export#zeros': { body: () => ({ leaderboard: 'bans' }) },
  'leaderboard.export#badge': { body: (f) => ({ leaderboard: 'badge_completion_time', badge: { id: f.badgeAppId, isFoil: false } }) },
  'account.export': { body: (f) => id(f.other) },
  'leaderboard.listBadges': { body: () => ({}) },
  'leaderboard.previewAccountRank': { body: (f) => ({ leaderboard: 'xp', ...id(f.other) }) },
  'search.getTrending': { body: () => ({ source: 'badge', window: '7d' }) },
  // A frontend key or a signed-in user: the caller's key is neither.
  'analytics.trackEvent': { body: (f) => ({ type: 'profile_view', payload: { accountId: f.other } }), as: 'session' },
  'stats.getStats': { body: () => ({}) },
  'staff.listStaff': { body: () => ({}) },
  'maintenance.list': { body: () => ({}), as: 'none' },
  // The staff operations: the caller holds `staff` (see beforeAll).
  'admin.getAccount': { body: (f) => id(f.other), as: 'session' },
  'admin.listAuditLog': { body: () => ({}), as: 'session' },
  'admin.listAuditLog#account': { body: (f) => ({ accountId: f.other }), as: 'session' },
  'admin.maintenance.list': { body: () => ({}), as: 'session' },
  'analytics.listMetrics': { body: () => ({}) },
  'analytics.getDistribution': { body: () => ({ domain: 'accounts', metric: 'xp', scope: 'country', scope_value: 'DE' }) },
  'analytics.getInequality': { body: () => ({ domain: 'accounts', metric: 'playtime', scope: 'global' }) },
  'analytics.getBivariate': { body: () => ({ domain: 'accounts', x: 'xp', y: 'playtime', agg: 'median', scope: 'global' }) },
  'analytics.getMetricByScope': { body: () => ({ domain: 'accounts', metric: 'badges', dimension: 'country', agg: 'avg' }) },
  'analytics.getMyPercentiles': { body: () => ({ domain: 'accounts', scope: 'global' }), as: 'session' },
  'analytics.getTrend': { body: () => ({ domain: 'accounts', metric: 'xp', scope: 'global', window: '90d' }) },
  // Writes.
  'badge.suggestTags': { body: (f) => ({ badgeId: `bdg_${f.badgeId}` }) },
  'badge.claimTagReviews': { body: () => ({ limit: 50 }) },
  'badge.setTags': { body: (f) => ({ badgeId: `bdg_${f.badgeId}`, expectedTagsVersion: '0', colors: ['col_red'] }) },
  'badge.tagBadge': {
    body: (f) => ({ badgeId: `bdg_${f.badgeId}`, colors: [{ id: 'col_blue', remove: false }], designs: [], metadata: [] }),
  },
  // A badge the service does not know: no open review to settle (409), no settled review to correct (404).
  'badge.submitTagReview': { body: () => ({ badgeId: 'bdg_999999999', skip: true }), status: 409 },
  'badge.reviseTagReview': { body: () => ({ badgeId: 'bdg_999999999', expectedReviewVersion: '1' }), status: 404 },
  'account.queueUpdate': { body: (f) => id(f.other) },
  'account.queueInventoryRefresh': { body: (f) => ({ accountIds: [f.other, f.friendFrom] }) },
  'app.queueUpdate': { body: (f) => ({ appIds: [f.appId, f.badgeAppId] }) },
  'group.queueUpdate': { body: () => ({ groupIds: [1, 2] }) },
  'account.refreshInventory': { body: () => ({}) },
  'account.uploadImages': { body: () => ({ images: [] }), as: 'session' },
  'account.createWebhook': {
    body: (f) => ({ keyId: f.keyId, url: 'https://example.com/hooks', events: ['maintenance.changed'] }),
    as: 'session',
  },
  'account.updateWebhook': { body: (f) => ({ webhookId: f.webhookId, description: 'renamed' }), as: 'session' },
  'account.rotateWebhookSecret': { body: (f) => ({ webhookId: f.webhookId }), as: 'session' },
  'account.deleteWebhook': { body: (f) => ({ webhookId: f.webhookId }), as: 'session' },
  'account.login': { body: (f) => f.assertion, as: 'none' },
  'account.createDeveloperApp': { body: () => ({ name: 'query plans', environment: 'development' }), as: 'session' },
  'account.updateDeveloperApp': { body: (f) => ({ keyId: f.spareKeyId, name: 'renamed' }), as: 'session' },
  'account.deleteDeveloperApp': { body: (f) => ({ keyId: f.spareKeyId }), as: 'session' },
  'account.updateSettings': {
    body: () => ({ hidden: false, language: 'en', vanity: 'queryplans', email: 'plans@example.com', countryOverride: 'DE' }),
    as: 'session',
  },
  'account.updateVanity': { body: () => ({ vanity: 'queryplans2' }), as: 'session' },
  'account.updateRole': { body: () => ({}), as: 'session' },
  'admin.updateRoles': { body: (f) => ({ ...id(f.other), roles: ['beta'] }), as: 'session' },
  'admin.updateRoleOverride': { body: (f) => ({ ...id(f.other), tier: 'tier_1', reason: 'plans' }), as: 'session' },
  'admin.updateResources': { body: (f) => ({ ...id(f.other), resources: [{ resource: 'developer_apps', value: '4' }] }), as: 'session' },
  'admin.removeVanity': { body: (f) => id(f.other), as: 'session' },
  'admin.maintenance.create': { body: () => ({ title: 'plans', message: 'm', enabled: true, paths: null }), as: 'session' },
  'admin.maintenance.update': { body: () => ({ uid: 'mnt_00000000', enabled: false }), as: 'session', status: 404 },
  'admin.maintenance.delete': { body: () => ({ uid: 'mnt_00000000' }), as: 'session', status: 404 },
  'account.getSession': { body: () => ({}), as: 'session' },
  'operator.createDashboardTicket': { body: () => ({}), as: 'session' },
  'account.listImages': { body: () => ({}), as: 'session' },
  'account.listBadgeBookmarks': { body: () => ({}), as: 'session' },
  'kv.list': { body: () => ({}), as: 'session' },
  'kv.set': { body: () => ({ namespace: 'ui', key: 'theme', value: 'dark' }), as: 'session' },
  'kv.delete': { body: () => ({ namespace: 'ui', key: 'theme' }), as: 'session' },
  'account.bookmarkBadge': { body: (f) => ({ badgeId: `bdg_${f.badgeId}`, bookmark: true }), as: 'session' },
  'account.createWatch': { body: (f) => ({ kind: 'rank', accountId: f.caller, leaderboard: 'xp', rank: 10 }), as: 'session' },
  'account.listWatches': { body: () => ({}), as: 'session' },
  'account.deleteWatch': { body: () => ({ watchId: 'wch_0000000000000000' }), as: 'session', status: 404 },
  'account.updateImages': { body: () => ({ images: [] }), as: 'session' },
  'account.deleteImages': { body: () => ({ imageIds: [] }), as: 'session' },
  'account.createConnection': { body: () => ({ provider: 'domain', code: 'plans.example.com' }), as: 'session' },
  'account.updateConnection': { body: (f) => ({ connectionId: f.connectionId, hidden: true }), as: 'session' },
  'account.verifyConnection': { body: (f) => ({ connectionId: f.connectionId }), as: 'session' },
  'account.reconnectConnection': { body: (f) => ({ connectionId: f.connectionId, code: f.reconnectCode }), as: 'session' },
  'account.deleteConnection': { body: (f) => ({ connectionId: f.connectionId }), as: 'session' },
  'account.subscribeEmail': { body: () => ({ subscribed: true }), as: 'session' },
  // After updateSettings gave the account an address: the code goes to the log (no SMTP_URL), so a guess is wrong.
  'account.sendEmailVerification': { body: () => ({}), as: 'session' },
  'account.verifyEmail': { body: () => ({ code: '000000' }), as: 'session', status: 422 },
  'account.deleteSession': { body: (f) => ({ sessionId: f.spareSessionId }), as: 'session' },
  'account.logout': { body: () => ({}), as: 'signedIn' },
  'account.refreshSession': { body: (f) => ({ refreshToken: f.refreshToken }), as: 'none' },
  'auth.createStreamTicket': { body: () => ({ stream: 'account.subscribe' }) },
};

/**
 * Known offenders: a statement of an operation that reads one of the tables whole. Every entry must still match
 * an offender (remove it once fixed); an offender no entry matches fails the test.
 */
const ALLOWED: { operation: string; table: string; statement: RegExp }[] = [
  // None today. An entry is
  //   // TODO(scale): <why the statement reads the table whole, and what would bound it>
  //   { operation: '<operationId>', table: '<table>', statement: /<a pattern of the statement>/ },
];

/** Every POST route of the running API, from the controllers' metadata (a route openapi.json lacks counts too). */
function routedPostOperations(ctx: PipelineContext): string[] {
  const operations: string[] = [];
  for (const module of ctx.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as { prototype: Record<string, unknown> } | null;
      if (!controller) continue;
      const prefix = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = controller.prototype[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const path = Reflect.getMetadata(PATH_METADATA, handler);
        if (path === undefined || Reflect.getMetadata(METHOD_METADATA, handler) !== RequestMethod.POST) continue;
        const full = `/${[prefix, String(path)].filter(Boolean).join('/')}`.replace(/\/+/g, '/');
        if (full.startsWith('/v1/')) operations.push(full.slice('/v1/'.length));
      }
    }
  }
  return operations;
}

/** Every POST /v1/<operationId> of the checked-in openapi.json. */
function documentedPostOperations(): string[] {
  const document = JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi.json'), 'utf8'));
  return Object.entries(document.paths as Record<string, { post?: { operationId: string } }>)
    .filter(([path, methods]) => methods.post && path.startsWith('/v1/'))
    .map(([, methods]) => methods.post!.operationId);
}

describe('request-path query plans', () => {
  let ctx: PipelineContext;
  let key: string;
  let session: string;
  let fixture: Fixture;
  /** While true, statements of the API outside any request are filed under '#rebuild'. */
  let rebuilding = false;
  const recorded = new Map<string, { sql: string; parameters: unknown[] }[]>();
  const original = { query: PostgresQueryRunner.prototype.query, stream: PostgresQueryRunner.prototype.stream };

  beforeAll(async () => {
    // Cooldown 0: account.refreshInventory queues the caller's own, already refreshed, account.
    // Exports in batches of 4, so that a minimal export walks several (and the zero tail past its first by keyset).
    ctx = await startPipeline('queryplans', {
      accounts: 60,
      env: { UPDATE_COOLDOWN_SECONDS: '0', EXPORTS_BATCH: '4', EXPORTS_PER_MINUTE: '100' },
    });
    const caller = 2;
    key = await ctx.apiKey(caller);
    const issued = await ctx.session(caller);
    session = issued.sessionToken;
    await ctx.startWorker();
    for (let accountId = 2; accountId <= 31; accountId++) {
      await ctx.http().post('/v1/account.queueUpdate').set('Authorization', `Bearer ${key}`).send(id(accountId)).expect(204);
    }
    for (let accountId = 2; accountId <= 31; accountId++) await ctx.waitForCompletion(accountId, key, 20_000);
    // Tag editing needs badge_scout; the staff queues need staff.
    await ctx.dataSource.query(`INSERT INTO account_roles (account_id, role) VALUES ($1, 'badge_scout'), ($1, 'staff')`, [caller]);

    const one = async <T>(sql: string): Promise<T> => {
      const [row] = await ctx.dataSource.query(sql);
      if (!row) throw new Error(`no fixture row for: ${sql}`);
      return row as T;
    };
    const app = await one<{ app_id: number }>('SELECT app_id FROM account_apps GROUP BY app_id ORDER BY count(*) DESC, app_id LIMIT 1');
    const badge = await one<{ id: number; app_id: number }>(
      `SELECT b.id, b.app_id FROM account_badges ab JOIN badges b ON b.id = ab.badge_id WHERE b.app_id IS NOT NULL
        GROUP BY b.id, b.app_id ORDER BY count(*) DESC, b.id LIMIT 1`,
    );
    const item = await one<{ class_id: string }>('SELECT class_id FROM inventory_items ORDER BY class_id LIMIT 1');
    // Two refreshed accounts with a common friend.
    const friends = await one<{ a: number; b: number }>(
      `SELECT f1.account_id AS a, f2.friend_account_id AS b FROM account_friends f1
         JOIN account_friends f2 ON f2.account_id = f1.friend_account_id
         JOIN accounts a ON a.account_id = f2.friend_account_id AND a.updated_at IS NOT NULL
        WHERE f2.friend_account_id <> f1.account_id AND f1.account_id BETWEEN 2 AND 31
        ORDER BY 1, 2 LIMIT 1`,
    );
    const listed = await one<{ account_id: number }>(
      `SELECT account_id FROM accounts WHERE privacy = 'public' AND updated_at IS NOT NULL ORDER BY account_id LIMIT 1`,
    );
    const keyId = `key_${key.split('_')[1]}`;
    const webhook = await ctx
      .http()
      .post('/v1/account.createWebhook')
      .set('Authorization', `Bearer ${session}`)
      .send({ keyId, url: 'https://example.com/hooks', events: ['account.updated'], accountIds: [3] })
      .expect(200);
    const spare = await ctx
      .http()
      .post('/v1/account.createDeveloperApp')
      .set('Authorization', `Bearer ${session}`)
      .send({ name: 'spare', environment: 'development' })
      .expect(200);
    const returnTo = `${ctx.config.signIn.webAppOrigin}/`;
    const signedIn = await ctx
      .http()
      .post('/v1/account.login')
      .send(await simulatorAssertion(ctx.simulatorUrl, 5, returnTo))
      .expect(200);
    const linked = await ctx
      .http()
      .post('/v1/account.createConnection')
      .set('Authorization', `Bearer ${session}`)
      .send({ provider: 'discord', code: await simulatorOAuthCode(ctx.simulatorUrl, ctx.config.connections.redirectUri, 'discord', 7) })
      .expect(200);
    const spareSession = await ctx.session(caller);
    const [{ session_id: spareSessionId }] = await ctx.dataSource.query(
      `SELECT session_id FROM user_sessions WHERE account_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [caller],
    );
    expect(spareSession.sessionToken).toBeTruthy();
    fixture = {
      connectionId: linked.body.connectionId,
      reconnectCode: await simulatorOAuthCode(ctx.simulatorUrl, ctx.config.connections.redirectUri, 'discord', 7),
      spareSessionId,
      keyId,
      spareKeyId: spare.body.developerApp.keyId,
      assertion: await simulatorAssertion(ctx.simulatorUrl, 6, returnTo),
      signedInSession: signedIn.body.sessionToken,
      webhookId: webhook.body.webhook.webhookId,
      publicAccount: listed.account_id,
      caller,
      other: 3,
      appId: app.app_id,
      badgeAppId: badge.app_id,
      badgeId: badge.id,
      classId: Number(item.class_id),
      friendFrom: friends.a,
      friendTo: friends.b,
      refreshToken: issued.refreshToken,
    };
    await ctx.dataSource.query('ANALYZE');

    const api = ctx.dataSource;
    const record = (runner: PostgresQueryRunner, sql: string, parameters: unknown[] | undefined) => {
      if (runner.dataSource !== api) return;
      const requestId = currentRequestId();
      const under = requestId?.startsWith(REQUEST_PREFIX)
        ? requestId.slice(REQUEST_PREFIX.length)
        : !requestId && rebuilding
          ? '#rebuild'
          : null;
      if (under) recorded.set(under, (recorded.get(under) ?? []).concat({ sql, parameters: parameters ?? [] }));
    };
    PostgresQueryRunner.prototype.query = function (this: PostgresQueryRunner, sql: string, parameters?: unknown[], structured?: boolean) {
      record(this, sql, parameters);
      return original.query.call(this, sql, parameters, structured as false);
    } as typeof original.query;
    PostgresQueryRunner.prototype.stream = function (this: PostgresQueryRunner, sql: string, parameters?: unknown[], ...rest: unknown[]) {
      record(this, sql, parameters);
      return (original.stream as (...args: unknown[]) => ReturnType<typeof original.stream>).call(this, sql, parameters, ...rest);
    } as typeof original.stream;

    // Whole-table reads on purpose, not request paths: they run outside any request, so no operation gets them.
    rebuilding = true;
    await rebuildDerivedState(ctx.app);
    rebuilding = false;
  }, 60_000);

  afterAll(async () => {
    PostgresQueryRunner.prototype.query = original.query;
    PostgresQueryRunner.prototype.stream = original.stream;
    await ctx?.close();
  });

  it('should flag a statement no index serves and pass one an index bounds', async () => {
    const checker = await PlanChecker.open(ctx.dataSource);
    try {
      const kinds = async (sql: string, parameters: unknown[] = []) => (await checker.check(sql, parameters)).offenders.map((o) => o.kind);
      // No index on theme: a Seq Scan even with Seq Scans off.
      expect(await kinds('SELECT account_id FROM accounts WHERE theme = $1', ['x'])).toEqual(['Seq Scan']);
      // The partial indexes on refreshed accounts serve this only by being read whole.
      expect(await kinds('SELECT account_id FROM accounts WHERE updated_at IS NOT NULL AND theme = $1', ['x'])).toEqual([
        expect.stringMatching(/without Index Cond/),
      ]);
      // Bounded by ix_account_friends_friend, even when the population makes a whole-index scan cheaper; and an
      // ordered walk a Limit stops early.
      const everyone = Array.from({ length: 60 }, (_, i) => i + 1);
      expect(await kinds('SELECT account_id FROM account_friends WHERE friend_account_id = ANY($1)', [everyone])).toEqual([]);
      expect(await kinds('SELECT account_id FROM accounts WHERE updated_at IS NOT NULL ORDER BY account_id LIMIT 10')).toEqual([]);
      // The owners of one badge joined to their accounts: the join can probe accounts by its key.
      const badgeOwners = `SELECT a.account_id, a.xp FROM account_badges x JOIN accounts a ON a.account_id = x.account_id
                            WHERE x.badge_id = $1 AND a.updated_at IS NOT NULL`;
      expect(await kinds(badgeOwners, [fixture.badgeId])).toEqual([]);
      // Every refreshed account numbered, whatever it is left-joined to: the preserved side is read whole.
      const wholeBoard = `WITH held AS (SELECT account_id FROM account_badges WHERE badge_id = $1)
        SELECT a.account_id, row_number() OVER (ORDER BY a.xp DESC, a.account_id) AS rank
          FROM accounts a LEFT JOIN held h ON h.account_id = a.account_id WHERE a.updated_at IS NOT NULL`;
      expect(await kinds(wholeBoard, [fixture.badgeId])).toEqual([expect.stringMatching(/without Index Cond/)]);
    } finally {
      await checker.close();
    }
  });

  it('should serve every request-path read of accounts, account_badges, account_apps, account_friends and groups from an index', async () => {
    const all = [...new Set([...routedPostOperations(ctx), ...documentedPostOperations()])].sort();
    expect(all.filter((operation) => !OPERATIONS[operation])).toEqual([]);
    expect(Object.keys(OPERATIONS).filter((operation) => !all.includes(pathOf(operation)))).toEqual([]);

    const bearer: Record<Credential, string | null> = { key, session, signedIn: fixture.signedInSession, none: null };
    for (const [operation, { body, as = 'key', status }] of Object.entries(OPERATIONS)) {
      const call = ctx
        .http()
        .post(`/v1/${pathOf(operation)}`)
        .set('X-Request-Id', `${REQUEST_PREFIX}${operation}`);
      if (bearer[as]) call.set('Authorization', `Bearer ${bearer[as]}`);
      const res = await call.send(body(fixture));
      if (status) {
        expect({ operation, status: res.status }).toEqual({ operation, status });
        continue;
      }
      const answer = { operation, status: res.status, problem: res.status < 300 ? undefined : res.body };
      expect(answer).toEqual({ operation, status: res.status < 300 ? res.status : '2xx', problem: undefined });
    }
    // The updates queued by account.queueUpdate and account.refreshInventory settle before the worker stops.
    await ctx.waitForCompletion(fixture.other, key, 20_000);
    await ctx.waitForCompletion(fixture.caller, key, 20_000);
    // By now the work the operations finish after answering (view and search counters) has run too.

    const rebuild = new Set((recorded.get('#rebuild') ?? []).map((statement) => statement.sql));
    expect(rebuild.size).toBeGreaterThan(0);
    const problems: string[] = [];
    const hits = new Set<number>();
    let touching = 0;
    const checker = await PlanChecker.open(ctx.dataSource);
    try {
      for (const operation of Object.keys(OPERATIONS)) {
        const seen = new Set<string>();
        for (const { sql, parameters } of recorded.get(operation) ?? []) {
          const query = plannable(sql);
          const fingerprint = JSON.stringify([sql, parameters]);
          if (!query || seen.has(fingerprint)) continue;
          seen.add(fingerprint);
          const statement =
            `${sql.replace(/\s+/g, ' ')}\n  parameters ${JSON.stringify(parameters)}` +
            (rebuild.has(sql) ? '\n  (a rebuild runs this statement too, but here a request ran it)' : '');
          let result: Awaited<ReturnType<PlanChecker['check']>>;
          try {
            result = await checker.check(query, parameters);
          } catch (error) {
            problems.push(`${operation}: EXPLAIN failed (${(error as Error).message})\n  ${statement}`);
            continue;
          }
          if (result.touches) touching++;
          for (const offender of result.offenders) {
            const allowed = ALLOWED.findIndex(
              (entry) => entry.operation === operation && entry.table === offender.table && entry.statement.test(sql),
            );
            if (allowed >= 0) hits.add(allowed);
            else
              problems.push(
                `${operation}: ${offender.kind} on ${offender.table}${offender.index ? ` using ${offender.index}` : ''}` +
                  `${offender.filter ? `, filter ${offender.filter}` : ''}\n  ${statement}`,
              );
          }
        }
      }
    } finally {
      await checker.close();
    }
    ALLOWED.forEach((entry, index) => {
      if (!hits.has(index))
        problems.push(`allow-list entry matches no offender any more, remove it: ${entry.operation} ${entry.statement}`);
    });
    // Enough statements read the tables checked for the check to mean something.
    expect(touching).toBeGreaterThan(20);
    expect(problems).toEqual([]);
  }, 30_000);
});
