import { AccountAdminService } from '../../src/accounts/account-admin.service';
import { changeRole } from '../../src/cli/commands/credentials';
import { changeMaintenance } from '../../src/cli/commands/operations';
import { PAGE_SIZE_BY_TIER } from '../../src/account-records/donor-tiers';
import { LocationDirectory } from '../../src/locations/location-directory.service';
import { startPipeline, PipelineContext } from '../support/pipeline';
import { matchesDocument } from '../support/wire-answers';

/**
 * The staff operations (admin.*, staff.listStaff, maintenance.list, account.updateRole, location.getLocations) through
 * HTTP: a staff session may, a session without a staff role gets 403, no or a bad credential 401; every staff change
 * leaves its audit row; the CLI's role and maintenance commands go through the same services and are audited too.
 */
describe('staff operations', () => {
  let ctx: PipelineContext;
  const STAFF = 9001;
  const USER = 9002;
  const TARGET = 9003;
  let staff: string;
  let user: string;

  beforeAll(async () => {
    ctx = await startPipeline('staff', { env: { DEVELOPER_APPS_PER_ACCOUNT: '3' } });
    await ctx.grantRole(STAFF, 'staff', 10);
    staff = (await ctx.session(STAFF)).sessionToken;
    user = (await ctx.session(USER)).sessionToken;
    await ctx.app.get(AccountAdminService).ensureAccount(TARGET, 'target@example.com');
  });
  afterAll(() => ctx.close());

  const as = (token: string | null, op: string, body?: object) => {
    const req = ctx.http().post(`/v1/${op}`).expect(matchesDocument(op));
    if (token) req.set('Authorization', `Bearer ${token}`);
    return body === undefined ? req : req.send(body);
  };
  const audit = async (filter: object = {}) =>
    (await as(staff, 'admin.listAuditLog', filter).expect(200)).body.entries as Record<string, any>[];

  const STAFF_OPS: [string, object | undefined][] = [
    ['admin.getAccount', { id: { accountId: TARGET } }],
    ['admin.removeVanity', { id: { accountId: TARGET } }],
    ['admin.updateRoles', { id: { accountId: TARGET }, roles: ['beta'] }],
    ['admin.updateRoleOverride', { id: { accountId: TARGET }, tier: 'tier_2' }],
    ['admin.updateResources', { id: { accountId: TARGET }, resources: [{ resource: 'developer_apps', value: '5' }] }],
    ['admin.maintenance.create', { title: 't', message: 'm', enabled: true, paths: null }],
    ['admin.maintenance.update', { uid: 'mnt_00000000', enabled: false }],
    ['admin.maintenance.delete', { uid: 'mnt_00000000' }],
    ['admin.maintenance.list', undefined],
    ['admin.listAuditLog', {}],
  ];

  it('should refuse every staff operation without a credential (401), with a bad one (401) and without a staff role (403)', async () => {
    const before = (await audit()).length;
    for (const [op, body] of STAFF_OPS) {
      expect([op, (await as(null, op, body)).status]).toEqual([op, 401]);
      expect([op, (await as('auth_not-a-session', op, body)).status]).toEqual([op, 401]);
      const refused = await as(user, op, body);
      expect([op, refused.status]).toEqual([op, 403]);
      expect(refused.body.detail).toBe('This operation needs one of the roles staff, owner, developer.');
    }
    // API keys are not staff credentials, even a staff account's.
    const key = await ctx.apiKey(STAFF);
    expect((await as(key, 'admin.getAccount', { id: { accountId: TARGET } })).status).toBe(401);
    // Nothing was changed, so nothing was audited.
    expect(await audit()).toHaveLength(before);
    const roles = await ctx.dataSource.query('SELECT role FROM account_roles WHERE account_id = $1', [TARGET]);
    expect(roles).toEqual([]);
  });

  it('should set roles, list staff, and audit the change with the roles before and after', async () => {
    await as(staff, 'admin.updateRoles', { id: { accountId: TARGET }, roles: ['beta', 'badge_scout'] }).expect(204);
    await as(staff, 'admin.updateRoles', { id: { accountId: TARGET }, roles: ['badge_scout', 'developer'] }).expect(204);
    const held = await ctx.dataSource.query('SELECT role FROM account_roles WHERE account_id = $1 ORDER BY role', [TARGET]);
    expect(held.map((row: { role: string }) => row.role)).toEqual(['badge_scout', 'developer']);

    const [latest] = await audit({ accountId: TARGET });
    expect(latest).toMatchObject({
      actorAccountId: STAFF,
      via: 'api',
      action: 'admin.updateRoles',
      targetAccountId: TARGET,
      targetId: null,
    });
    expect(latest.before.roles.map((r: { role: string }) => r.role).sort()).toEqual(['badge_scout', 'beta']);
    expect(latest.after.roles.map((r: { role: string }) => r.role).sort()).toEqual(['badge_scout', 'developer']);
    expect(Date.parse(latest.createdAt)).toBeGreaterThan(Date.now() - 60_000);

    // `developer` is a staff role: the target is staff now, and may call staff operations from its next request.
    const listed = await as(user, 'staff.listStaff').expect(200);
    expect(listed.body.map((card: { steamId: string }) => card.steamId)).toEqual(['76561197960274729', '76561197960274731']);
    expect(listed.body[0]).toMatchObject({ roles: [expect.objectContaining({ role: 'staff', rating: 10 })] });
    const target = (await ctx.session(TARGET)).sessionToken;
    await as(target, 'admin.maintenance.list').expect(200);
    await as(staff, 'admin.updateRoles', { id: { accountId: TARGET }, roles: [] }).expect(204);
    await as(target, 'admin.maintenance.list').expect(403);

    // Only an owner hands out `owner`.
    const auditedBefore = (await audit()).length;
    await as(staff, 'admin.updateRoles', { id: { accountId: TARGET }, roles: ['owner'] }).expect(403);
    await as(staff, 'admin.updateRoles', { id: { accountId: STAFF }, roles: ['staff', 'owner'] }).expect(403);
    expect(await audit()).toHaveLength(auditedBefore);

    // Unknown accounts, empty selectors and unknown roles are refused before anything is written.
    await as(staff, 'admin.updateRoles', { id: { accountId: 123456 }, roles: ['beta'] }).expect(404);
    await as(staff, 'admin.updateRoles', { roles: ['beta'] }).expect(422);
    await as(staff, 'admin.updateRoles', { id: { accountId: TARGET }, roles: ['king'] }).expect(422);
  });

  it('should grant a tier override that the donor perks follow, and take it back', async () => {
    const target = (await ctx.session(TARGET)).sessionToken;
    const pageSize = async () => (await as(target, 'app.listOwners', { appId: 10 }).expect(200)).body.maxPageSize;
    expect(await pageSize()).toBe(25);
    await as(staff, 'admin.updateRoleOverride', { id: { accountId: TARGET }, tier: 'tier_3', reason: 'PayPal' }).expect(204);
    expect(await pageSize()).toBe(PAGE_SIZE_BY_TIER.tier_3);
    const settings = await as(target, 'account.getSettings').expect(200);
    expect(settings.body.chosenRole).toEqual({ role: 'donator', tier: 'tier_3' });
    await as(staff, 'admin.updateRoleOverride', { id: { accountId: TARGET }, tier: '' }).expect(204);
    expect(await pageSize()).toBe(25);
    expect(await ctx.dataSource.query('SELECT role FROM account_roles WHERE account_id = $1', [TARGET])).toEqual([]);
    const [removed, set] = await audit({ accountId: TARGET });
    expect(set).toMatchObject({ action: 'admin.updateRoleOverride', before: { roles: [] } });
    expect(set.after.roles).toEqual([{ role: 'donator', rating: 0, extras: { tier: 'tier_3', reason: 'PayPal', override: true } }]);
    expect(removed).toMatchObject({ action: 'admin.updateRoleOverride', after: { roles: [] } });
    await as(staff, 'admin.updateRoleOverride', { id: { accountId: TARGET }, tier: 'tier_9' }).expect(422);
  });

  it('should grant resources that the limits enforce, and refuse ones that cannot be granted', async () => {
    const target = (await ctx.session(TARGET)).sessionToken;
    await as(staff, 'admin.updateResources', {
      id: { accountId: TARGET },
      resources: [
        { resource: 'developer_apps', value: '1' },
        { resource: 'max_find_owners', value: '300' },
      ],
    }).expect(204);
    await as(target, 'account.createDeveloperApp', { name: 'One' }).expect(200);
    const second = await as(target, 'account.createDeveloperApp', { name: 'Two' }).expect(409);
    expect(second.body.detail).toBe('An account may hold 1 developer apps; delete one before creating another.');
    expect((await as(target, 'app.listOwners', { appId: 10 }).expect(200)).body.maxPageSize).toBe(300);
    const session = await as(target, 'account.getSession').expect(200);
    expect(session.body.resources).toEqual(
      expect.arrayContaining([
        { resource: 'developer_apps', value: '1' },
        { resource: 'max_find_owners', value: '300' },
        { resource: 'max_badge_crafters', value: '25' },
      ]),
    );
    const [entry] = await audit({ accountId: TARGET });
    expect(entry).toMatchObject({ action: 'admin.updateResources', before: {}, after: { developer_apps: '1', max_find_owners: '300' } });

    // Every wire resource name is accepted by the document; one this service cannot grant is its own 422.
    const notGrantable = await as(staff, 'admin.updateResources', {
      id: { accountId: TARGET },
      resources: [{ resource: 'vanity', value: '1' }],
    }).expect(422);
    expect(notGrantable.body.detail).toBe('The resource vanity cannot be granted.');
    expect(notGrantable.body.errors).toEqual([{ location: 'body.resources[0].resource', message: 'not grantable', value: 'vanity' }]);
    // Judged whole: one bad entry writes nothing.
    for (const resources of [
      [{ resource: 'account_refresh_rate', value: '1' }],
      [
        { resource: 'developer_apps', value: '2' },
        { resource: 'max_find_owners', value: '5000' },
      ],
    ])
      await as(staff, 'admin.updateResources', { id: { accountId: TARGET }, resources }).expect(422);
    await as(staff, 'admin.updateResources', { id: { accountId: TARGET }, resources: [{ resource: 'developer_apps', value: '' }] }).expect(
      204,
    );
    await as(target, 'account.createDeveloperApp', { name: 'Two' }).expect(200);
    expect((await audit({ accountId: TARGET }))[0].after).toEqual({ max_find_owners: '300' });
  });

  it('should show an account with its private parts and histories, and remove its vanity', async () => {
    const target = (await ctx.session(TARGET)).sessionToken;
    await as(target, 'account.updateVanity', { vanity: 'firstname' }).expect(204);
    await as(target, 'account.updateVanity', { vanity: 'secondname' }).expect(204);
    await as(target, 'account.updateSettings', { hidden: false, language: 'en', vanity: 'secondname', countryOverride: 'DE' }).expect(204);
    await as(staff, 'admin.removeVanity', { vanity: { type: 'internal', value: 'secondname' } }).expect(200, {
      $schema: 'http://api.test/schemas/V1AdminRemoveVanityResponseBody.json',
    });
    await as(user, 'account.getInfo', { vanity: { type: 'internal', value: 'secondname' } }).expect(404);

    const res = await as(staff, 'admin.getAccount', { id: { steamId64: '76561197960274731' } }).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.body;
    expect(body).toMatchObject({
      $schema: 'http://api.test/schemas/V1AdminGetAccountResponseBody.json',
      email: 'target@example.com',
      vanity: null,
      country: 'DE',
      region: 'Europe',
      privacy: expect.any(String),
      roles: [],
      connections: [],
    });
    expect(body.developerApps.map((app: { name: string; apiKey: unknown }) => [app.name, app.apiKey])).toEqual([
      ['One', expect.stringMatching(/^sk_/)],
      ['Two', expect.stringMatching(/^sk_/)],
    ]);
    expect(JSON.stringify(body)).not.toMatch(/sk_[A-Za-z0-9]{20,}/);
    expect(body.sessions.length).toBeGreaterThanOrEqual(1);
    expect(body.vanityUpdates.map((u: { vanity: object }) => u.vanity)).toEqual([
      { old: 'secondname', new: null },
      { old: 'firstname', new: 'secondname' },
      { old: null, new: 'firstname' },
    ]);
    expect(body.locationUpdates).toEqual([
      expect.objectContaining({
        countryCode: { old: null, new: 'DE' },
        region: { old: null, new: 'Europe' },
        city: { old: null, new: null },
      }),
    ]);
    expect(body.resources).toContainEqual({ resource: 'max_find_owners', value: '300' });
    const [removal] = await audit({ accountId: TARGET });
    expect(removal).toMatchObject({ action: 'admin.removeVanity', before: { vanity: 'secondname' }, after: { vanity: null } });

    await as(staff, 'admin.getAccount', { id: { accountId: 424242 } }).expect(404);
    await as(staff, 'admin.getAccount', {}).expect(422);
  });

  it('should record the name and location changes the worker sees', async () => {
    await ctx.startWorker();
    try {
      const key = await ctx.apiKey(STAFF);
      await as(key, 'account.queueUpdate', { id: { accountId: 5 } }).expect(204);
      await ctx.waitForCompletion(5, key);
      // A first update changes nothing: no history yet.
      expect((await as(staff, 'admin.getAccount', { id: { accountId: 5 } }).expect(200)).body.nameUpdates).toEqual([]);
      const [platform]: { name: string; country_code: string | null }[] = await ctx.dataSource.query(
        'SELECT name, country_code FROM accounts WHERE account_id = 5',
      );
      // The row as it was before the platform's current values: a rename and a move since the last update.
      const elsewhere = platform.country_code === 'FR' ? 'JP' : 'FR';
      await ctx.dataSource.query(
        `UPDATE accounts SET name = 'Old Name', country_code = $1, country_name = 'Elsewhere', state_code = NULL, state_name = NULL,
           city_id = NULL, city_name = NULL WHERE account_id = 5`,
        [elsewhere],
      );
      await as(staff, 'account.queueUpdate', { id: { accountId: 5 }, force: true }).expect(204);
      await ctx.waitForCompletion(5, key);
      const body = (await as(staff, 'admin.getAccount', { id: { accountId: 5 } }).expect(200)).body;
      expect(body.nameUpdates).toEqual([{ name: { old: 'Old Name', new: platform.name }, updatedAt: expect.any(String) }]);
      expect(body.locationUpdates).toEqual([
        expect.objectContaining({
          countryCode: { old: elsewhere, new: platform.country_code },
          countryName: expect.objectContaining({ old: 'Elsewhere' }),
        }),
      ]);
    } finally {
      await ctx.stopWorker();
    }
  });

  it('should create, update, list and delete maintenance events, public ones in force only, all audited', async () => {
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    const now = await as(staff, 'admin.maintenance.create', {
      title: 'Upgrade',
      message: 'Back **soon**',
      enabled: true,
      paths: ['/leaderboards'],
    }).expect(200);
    expect(now.body).toMatchObject({
      $schema: 'http://api.test/schemas/MaintenanceEvent.json',
      title: 'Upgrade',
      enabled: true,
      paths: ['/leaderboards'],
      createdBy: STAFF,
    });
    const later = await as(staff, 'admin.maintenance.create', {
      title: 'Later',
      message: 'm',
      enabled: true,
      paths: null,
      startsAt: soon,
    }).expect(200);
    expect(later.body.paths).toEqual(['*']);

    const publicList = await as(null, 'maintenance.list').expect(200);
    expect(publicList.body.items.map((e: { uid: string }) => e.uid)).toEqual([now.body.uid]);
    const all = await as(staff, 'admin.maintenance.list').expect(200);
    expect(all.body.items.map((e: { uid: string }) => e.uid)).toEqual([later.body.uid, now.body.uid]);

    const updated = await as(staff, 'admin.maintenance.update', { uid: later.body.uid, clearStartsAt: true, title: 'Now' }).expect(200);
    expect(updated.body).toMatchObject({ title: 'Now', message: 'm' });
    expect(updated.body.startsAt).toBeUndefined();
    expect((await as(null, 'maintenance.list').expect(200)).body.items).toHaveLength(2);
    await as(staff, 'admin.maintenance.update', { uid: later.body.uid, startsAt: soon, clearStartsAt: true }).expect(422);
    await as(staff, 'admin.maintenance.update', { uid: later.body.uid, endsAt: '2020-01-01T00:00:00Z', startsAt: soon }).expect(422);
    await as(staff, 'admin.maintenance.update', { uid: 'mnt_ffffffff', enabled: false }).expect(404);
    // Dates are checked whole: a pattern-valid one that names no instant is a 422 too.
    await as(staff, 'admin.maintenance.update', { uid: later.body.uid, endsAt: 'soon' }).expect(422);
    await as(staff, 'admin.maintenance.update', { uid: later.body.uid, endsAt: '2030-13-45T99:00:00Z' }).expect(422);

    await as(staff, 'admin.maintenance.delete', { uid: later.body.uid }).expect(200, {
      $schema: 'http://api.test/schemas/DeleteResponseBody.json',
      ok: true,
    });
    await as(staff, 'admin.maintenance.delete', { uid: later.body.uid }).expect(404);
    const entries = (await audit()).filter((e) => e.targetId === later.body.uid);
    expect(entries.map((e) => e.action)).toEqual(['admin.maintenance.delete', 'admin.maintenance.update', 'admin.maintenance.create']);
    expect(entries[0]).toMatchObject({ before: expect.objectContaining({ title: 'Now' }), after: null });
    expect(entries[1]).toMatchObject({
      before: expect.objectContaining({ title: 'Later' }),
      after: expect.objectContaining({ title: 'Now' }),
    });
  });

  it('should let the CLI change roles and maintenance through the same services, audited as the CLI', async () => {
    await changeRole(ctx.app, 'grant', { account: TARGET, role: 'translator' });
    await changeRole(ctx.app, 'revoke', { account: TARGET, role: 'translator' });
    const [revoked, granted] = await audit({ accountId: TARGET });
    expect(granted).toMatchObject({
      via: 'cli',
      actorAccountId: null,
      action: 'role.grant',
      after: { roles: [expect.objectContaining({ role: 'translator' })] },
    });
    expect(revoked).toMatchObject({ via: 'cli', action: 'role.revoke', after: { roles: [] } });
    const uid = (await as(null, 'maintenance.list').expect(200)).body.items[0].uid;
    await changeMaintenance(ctx.app, 'disable', uid);
    expect((await as(null, 'maintenance.list').expect(200)).body.items).toEqual([]);
    const [disabled] = await audit();
    expect(disabled).toMatchObject({
      via: 'cli',
      action: 'admin.maintenance.update',
      targetId: uid,
      after: expect.objectContaining({ enabled: false }),
    });
  });

  it('should page the audit log newest first', async () => {
    const first = await as(staff, 'admin.listAuditLog', { limit: 2 }).expect(200);
    expect(first.body.entries).toHaveLength(2);
    const second = await as(staff, 'admin.listAuditLog', { limit: 2, cursor: first.body.nextCursor }).expect(200);
    expect(BigInt(second.body.entries[0].id)).toBeLessThan(BigInt(first.body.entries[1].id));
    await as(staff, 'admin.listAuditLog', { limit: 1000 }).expect(422);
    await as(staff, 'admin.listAuditLog', { cursor: 'forged' }).expect(422);
  });

  it('should let a user show a role they hold as chosenRole, and only such a role', async () => {
    const target = (await ctx.session(TARGET)).sessionToken;
    await as(target, 'account.updateRole', { role: 'ruby' }).expect(422);
    await as(staff, 'admin.updateRoles', { id: { accountId: TARGET }, roles: ['ruby', 'beta'] }).expect(204);
    await as(target, 'account.updateRole', { role: 'ruby' }).expect(204);
    expect((await as(target, 'account.getSettings').expect(200)).body.chosenRole).toEqual({ role: 'ruby', tier: '' });
    await as(target, 'account.updateRole', { role: 'staff' }).expect(422);
    await as(staff, 'admin.updateRoles', { id: { accountId: TARGET }, roles: ['beta'] }).expect(204);
    expect((await as(target, 'account.getSettings').expect(200)).body.chosenRole).toEqual({ role: 'beta', tier: '' });
    await as(await ctx.apiKey(TARGET), 'account.updateRole', {}).expect(401);
  });

  it('should list locations by GET as a bare array, with the names the location boards accept', async () => {
    await ctx.dataSource.query(
      `UPDATE accounts SET country_code = 'DE', country_name = 'Germany', state_code = '01', state_name = 'Baden-Wurttemberg',
         city_id = 7, city_name = 'Bad Krozingen', region = 'Europe' WHERE account_id = $1`,
      [USER],
    );
    // Built at boot, before this place existed; rebuilt hourly, or now.
    await ctx.app.get(LocationDirectory).rebuild();
    await ctx.http().get('/v1/location.getLocations').expect(401);
    const res = await ctx
      .http()
      .get('/v1/location.getLocations')
      .set('Authorization', `Bearer ${user}`)
      .expect(200)
      .expect(matchesDocument('location.getLocations', 'get'));
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.map((region: { name: string }) => region.name)).toEqual([
      'Africa',
      'Antarctica',
      'Asia',
      'Europe',
      'North America',
      'Oceania',
      'South America',
    ]);
    const europe = res.body.find((region: { name: string }) => region.name === 'Europe');
    const germany = europe.countries.find((country: { code: string }) => country.code === 'DE');
    expect(germany).toEqual({
      code: 'DE',
      name: 'Germany',
      states: [{ code: '01', name: 'Baden-Wurttemberg', cities: [{ name: 'Bad Krozingen' }] }],
    });
    expect(europe.countries.find((country: { code: string }) => country.code === 'FR')).toMatchObject({ name: 'France' });
    // The names are the ones a location board filters by.
    await as(user, 'leaderboard.getAccountLeaderboard', { leaderboard: 'xp', location: [{ city: 'Bad Krozingen' }] }).expect(200);
    // Built once: a second answer is the same text.
    const again = await ctx.http().get('/v1/location.getLocations').set('Authorization', `Bearer ${user}`).expect(200);
    expect(again.text).toBe(res.text);
  });
});
