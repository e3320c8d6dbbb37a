import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { AUTH_POLICY } from '../../src/common/auth/auth.decorator';
import { REQUIRED_ROLES } from '../../src/common/auth/require-role.decorator';
import { startTestApp, TestContext } from '../support/test-app';

interface Route {
  method: string;
  path: string;
  policy: string | undefined;
  roles: string[] | undefined;
}

/** Every route of the API module, read from the controllers' metadata. */
function routesOf(ctx: TestContext): Route[] {
  const routes: Route[] = [];
  for (const module of ctx.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as { prototype: Record<string, unknown> } | null;
      if (!controller) continue;
      const prefix = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = controller.prototype[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const path = Reflect.getMetadata(PATH_METADATA, handler);
        if (path === undefined) continue;
        routes.push({
          method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number],
          path: `/${[prefix, String(path)].filter(Boolean).join('/')}`.replace(/\/+/g, '/'),
          policy: Reflect.getMetadata(AUTH_POLICY, handler) ?? Reflect.getMetadata(AUTH_POLICY, controller),
          roles: Reflect.getMetadata(REQUIRED_ROLES, handler),
        });
      }
    }
  }
  return routes;
}

describe('credential policies', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp('policies');
  });
  afterAll(() => ctx.close());

  it('should give every route an explicit policy', () => {
    const routes = routesOf(ctx);
    expect(routes.length).toBeGreaterThan(3);
    expect(routes.filter((route) => !route.policy)).toEqual([]);
  });

  it('should keep public routes to the documented few', () => {
    const open = routesOf(ctx)
      .filter((route) => ['public', 'refresh-token', 'sign-in'].includes(String(route.policy)))
      .map((route) => `${route.method} ${route.path}`);
    expect(open.sort()).toEqual([
      'GET /health',
      'GET /images/:file',
      'GET /metrics',
      'GET /schemas/:file',
      'POST /v1/account.login',
      'POST /v1/account.refreshSession',
      'POST /v1/donate.getGoal',
      'POST /v1/maintenance.list',
    ]);
  });

  it("should keep the account holder's own operations to user sessions", () => {
    const sessionOnly = routesOf(ctx)
      .filter((route) => route.policy === 'session')
      .map((route) => `${route.method} ${route.path}`);
    expect(sessionOnly.sort()).toEqual([
      'POST /v1/account.bookmarkBadge',
      'POST /v1/account.createConnection',
      'POST /v1/account.createDeveloperApp',
      'POST /v1/account.createWatch',
      'POST /v1/account.createWebhook',
      'POST /v1/account.deleteConnection',
      'POST /v1/account.deleteDeveloperApp',
      'POST /v1/account.deleteImages',
      'POST /v1/account.deleteSession',
      'POST /v1/account.deleteWatch',
      'POST /v1/account.deleteWebhook',
      'POST /v1/account.getSession',
      'POST /v1/account.getSettings',
      'POST /v1/account.listBadgeBookmarks',
      'POST /v1/account.listImages',
      'POST /v1/account.listWatches',
      'POST /v1/account.listWebhookDeliveries',
      'POST /v1/account.listWebhooks',
      'POST /v1/account.logout',
      'POST /v1/account.reconnectConnection',
      'POST /v1/account.rotateWebhookSecret',
      'POST /v1/account.sendEmailVerification',
      'POST /v1/account.subscribeEmail',
      'POST /v1/account.updateConnection',
      'POST /v1/account.updateDeveloperApp',
      'POST /v1/account.updateImages',
      'POST /v1/account.updateRole',
      'POST /v1/account.updateSettings',
      'POST /v1/account.updateVanity',
      'POST /v1/account.updateWebhook',
      'POST /v1/account.uploadImages',
      'POST /v1/account.verifyConnection',
      'POST /v1/account.verifyEmail',
      'POST /v1/admin.getAccount',
      'POST /v1/admin.listAuditLog',
      'POST /v1/admin.maintenance.create',
      'POST /v1/admin.maintenance.delete',
      'POST /v1/admin.maintenance.list',
      'POST /v1/admin.maintenance.update',
      'POST /v1/admin.removeVanity',
      'POST /v1/admin.updateResources',
      'POST /v1/admin.updateRoleOverride',
      'POST /v1/admin.updateRoles',
      'POST /v1/analytics.getMyPercentiles',
      'POST /v1/kv.delete',
      'POST /v1/kv.list',
      'POST /v1/kv.set',
      'POST /v1/operator.createDashboardTicket',
    ]);
  });

  it('should keep the staff operations to staff', () => {
    const staffOnly = routesOf(ctx).filter((route) => route.roles);
    expect(staffOnly.map((route) => `${route.method} ${route.path} ${route.policy} ${route.roles!.join(',')}`).sort()).toEqual([
      // The staff queues: a staff session or a staff account's API key (an operator's script).
      ...['account.queueInventoryRefresh'].map((op) => `POST /v1/${op} any staff,owner,developer`),
      ...[
        'admin.getAccount',
        'admin.listAuditLog',
        'admin.maintenance.create',
        'admin.maintenance.delete',
        'admin.maintenance.list',
        'admin.maintenance.update',
        'admin.removeVanity',
        'admin.updateResources',
        'admin.updateRoleOverride',
        'admin.updateRoles',
      ].map((op) => `POST /v1/${op} session staff,owner,developer`),
      ...['app.queueUpdate', 'group.queueUpdate'].map((op) => `POST /v1/${op} any staff,owner,developer`),
    ]);
    // Every admin.* route is role-checked.
    expect(routesOf(ctx).filter((route) => route.path.startsWith('/v1/admin.') && !route.roles)).toEqual([]);
  });

  it('should answer 401 without a credential on every route that needs one', async () => {
    const guarded = routesOf(ctx).filter((route) => route.policy === 'any' || route.policy === 'session');
    for (const route of guarded) {
      const res = await ctx.http()[route.method === 'GET' ? 'get' : 'post'](route.path);
      expect({ route: route.path, status: res.status }).toEqual({ route: route.path, status: 401 });
    }
  });
});
