import Redis from 'ioredis';
import { GroupBoard } from '../../src/groups/group-board.service';
import { startPipeline, PipelineContext } from '../support/pipeline';
import { REDIS_URL } from '../support/test-app';

/**
 * Groups through the real stack: account updates in the worker see their groups (GetUserGroupList), queue a
 * refresh of each stale one, and the group refresh reads the simulator's members list once per refresh interval.
 */
describe('groups: account.listOwnedGroups and leaderboard.getGroupLeaderboard', () => {
  let ctx: PipelineContext;
  let key: string;
  const auth = () => ({ Authorization: `Bearer ${key}` });
  const gid64 = (gid: number) => (103582791429521408n + BigInt(gid)).toString();
  const pageRequests = (gid: number) => ctx.simulator.requestsFor(`/gid/${gid64(gid)}/memberslistxml/`);
  const q = <T>(sql: string, params: unknown[] = []) => ctx.dataSource.query(sql, params) as Promise<T[]>;

  /** Test fixtures chosen from the simulator's truth. */
  let owner: number;
  let privateAccount: number;
  let hiddenGroup: number;
  let hiddenMember: number;
  let shared: number;
  let sharedMembers: number[];
  const updated = new Set<number>();

  async function queue(accountId: number): Promise<void> {
    await ctx.http().post('/v1/account.queueUpdate').set(auth()).send({ id: { accountId } }).expect(204);
    updated.add(accountId);
  }

  async function update(...accountIds: number[]): Promise<void> {
    for (const accountId of accountIds) await queue(accountId);
    for (const accountId of accountIds) await ctx.waitForCompletion(accountId, key, 30_000);
  }

  /** Waits until every group of the updated accounts (and the service's own) has been read since `since`. */
  async function groupsRead(gids: number[], since = new Date(0)): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const [{ read }] = await q<{ read: number }>(
        'SELECT count(*)::int AS read FROM groups WHERE gid = ANY($1::bigint[]) AND refreshed_at >= $2',
        [gids, since],
      );
      if (read === new Set(gids).size) return;
      if (Date.now() > deadline) throw new Error(`only ${read} of ${gids.length} groups were read`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The board once every group read so far is placed on it (a read writes the row, then places the group). */
  async function settledBoard(body: Record<string, unknown> = {}) {
    const [{ ranked }] = await q<{ ranked: number }>(`SELECT count(*)::int AS ranked FROM groups WHERE privacy <> 'hidden'`);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await board(body).expect(200);
      if (res.body.rankedOutOf === ranked) return res;
      if (Date.now() > deadline) throw new Error(`the board ranks ${res.body.rankedOutOf} groups, not ${ranked}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const board = (body: Record<string, unknown> = {}) =>
    ctx
      .http()
      .post('/v1/leaderboard.getGroupLeaderboard')
      .set(auth())
      .send({ leaderboard: 'most_members', ...body });

  beforeAll(async () => {
    ctx = await startPipeline('groups', { env: { GROUP_REFRESH_INTERVAL_SECONDS: '3600', SERVICE_GROUP_ID: '1' } });
    key = await ctx.apiKey(1);
    await ctx.startWorker();
    const u = ctx.simulator.universe;
    const gids = Array.from({ length: u.groupCount }, (_, i) => i + 1);
    const readable = (gid: number) => !u.group(gid)!.hidden;
    // A public account that owns a readable group; a private account in some group; a public member of a hidden group.
    owner = gids
      .filter(readable)
      .map((gid) => u.groupMembers(gid)[0])
      .find((id) => id > 1 && id !== undefined && !u.isPrivate(id))!;
    privateAccount = Array.from({ length: 298 }, (_, i) => i + 2).find((id) => u.isPrivate(id))!;
    hiddenGroup = gids.find((gid) => !readable(gid) && u.groupMembers(gid).some((id) => id > 1 && !u.isPrivate(id)))!;
    hiddenMember = u.groupMembers(hiddenGroup).find((id) => id > 1 && !u.isPrivate(id) && id !== owner)!;
    // A readable group with at least seven public members that no update before its own test reads (nor the boot,
    // which reads the service's own group).
    const readEarlier = new Set([1, ...u.groups(owner), ...u.groups(hiddenMember)].map(Number));
    shared = gids.find(
      (gid) =>
        !readEarlier.has(gid) &&
        readable(gid) &&
        u.groupMembers(gid).filter((id) => id > 1 && !u.isPrivate(id) && id !== owner && id !== hiddenMember).length >= 7,
    )!;
    sharedMembers = u
      .groupMembers(shared)
      .filter((id) => id > 1 && !u.isPrivate(id) && id !== owner && id !== hiddenMember)
      .slice(0, 7);
    expect([owner, privateAccount, hiddenGroup, hiddenMember, shared]).not.toContain(undefined);
  }, 60_000);
  afterAll(() => ctx.close());

  it('should read the service’s own group at boot and always answer it as steamSetsGroup', async () => {
    await groupsRead([1]);
    const truth = ctx.simulator.universe.group(1)!;
    const res = await settledBoard();
    expect(res.body).toEqual({
      $schema: 'http://api.test/schemas/V1LeaderboardGetGroupLeaderboardResponseBody.json',
      groups: [expect.objectContaining({ id: 1, rank: 1 })],
      rankedOutOf: 1,
      steamSetsGroup: {
        id: 1,
        name: truth.name,
        tag: '',
        vanity: truth.vanity,
        avatar: `${truth.avatarHash}.jpg`,
        foundedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        members: truth.memberCount,
        rank: 1,
        privacy: 'public',
        owner: null,
      },
    });
  });

  it('should list the groups an account refreshed through the worker owns, largest first', async () => {
    const u = ctx.simulator.universe;
    const mine = u.groups(owner).map(Number);
    const expected = mine
      .filter((gid) => !u.group(gid)!.hidden && u.groupMembers(gid)[0] === owner)
      .sort((a, b) => u.group(b)!.memberCount - u.group(a)!.memberCount || a - b);
    expect(expected.length).toBeGreaterThan(0);
    await update(owner);
    await groupsRead(mine);
    const res = await ctx
      .http()
      .post('/v1/account.listOwnedGroups')
      .set(auth())
      .send({ id: { accountId: owner } })
      .expect(200);
    expect(res.body.$schema).toBe('http://api.test/schemas/V1AccountListOwnedGroupsResponseBody.json');
    expect(res.body.groups.map((g: { id: number }) => g.id)).toEqual(expected);
    const first = u.group(expected[0])!;
    expect(res.body.groups[0]).toEqual({
      id: expected[0],
      members: first.memberCount,
      name: first.name,
      tag: '',
      vanity: first.vanity,
      avatar: `${first.avatarHash}.jpg`,
      privacy: 'public',
      foundedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // The row keeps the owner both ways: the 64-bit id from the list and the account id.
    const [row] = await q<{ owner_steam_id: string; owner_account_id: number }>(
      'SELECT owner_steam_id, owner_account_id FROM groups WHERE gid = $1',
      [expected[0]],
    );
    expect(row).toEqual({ owner_steam_id: u.steamIdOf(owner), owner_account_id: owner });
  });

  it('should answer 403 for a private profile’s groups, 404 for an untracked account, 422 without a selector', async () => {
    await update(privateAccount);
    const list = (body: object) => ctx.http().post('/v1/account.listOwnedGroups').set(auth()).send(body);
    const forbidden = await list({ id: { accountId: privateAccount } }).expect(403);
    expect(forbidden.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(forbidden.body).toMatchObject({ status: 403, detail: expect.stringContaining('private') });
    await list({ id: { accountId: 299 } }).expect(404);
    await list({}).expect(422);
    await ctx
      .http()
      .post('/v1/account.listOwnedGroups')
      .send({ id: { accountId: owner } })
      .expect(401);
  });

  it('should record a hidden group (members list 403) as hidden, read once, and keep it off the board and owned lists', async () => {
    const before = pageRequests(hiddenGroup);
    await update(hiddenMember);
    await groupsRead(ctx.simulator.universe.groups(hiddenMember).map(Number));
    const [row] = await q<{ privacy: string; member_count: number; owner_account_id: number | null }>(
      'SELECT privacy, member_count, owner_account_id FROM groups WHERE gid = $1',
      [hiddenGroup],
    );
    expect(row).toEqual({ privacy: 'hidden', member_count: 0, owner_account_id: null });
    expect(pageRequests(hiddenGroup)).toBe(before + 1);
    const res = await settledBoard({ start: 1, end: 100 });
    expect(res.body.groups.map((g: { id: number }) => g.id)).not.toContain(hiddenGroup);
    expect(res.body.groups).toHaveLength(res.body.rankedOutOf);
  });

  it('should read a group shared by many updated accounts once per refresh interval', async () => {
    const before = pageRequests(shared);
    const [first, ...rest] = sharedMembers;
    // Six members updated at once (the worker runs several updates in parallel), then their groups settle.
    await update(...rest.slice(0, 5));
    await groupsRead([shared]);
    await update(rest[5]);
    expect(pageRequests(shared)).toBe(before + 1);
    // Once the read is older than the interval, the next member's update reads it again, once.
    await q(`UPDATE groups SET refreshed_at = now() - interval '2 hours' WHERE gid = $1`, [shared]);
    const readAgainSince = new Date();
    await update(first);
    await groupsRead([shared], new Date(readAgainSince.getTime() - 60_000));
    expect(pageRequests(shared)).toBe(before + 2);
  });

  it('should rank groups by members in rank windows, with owners and the service’s own group', async () => {
    const u = ctx.simulator.universe;
    const seen = [1, ...[...updated].filter((id) => !u.isPrivate(id)).flatMap((id) => u.groups(id).map(Number))];
    await groupsRead(seen);
    const expected = [...new Set(seen)]
      .filter((gid) => !u.group(gid)!.hidden)
      .sort((a, b) => u.group(b)!.memberCount - u.group(a)!.memberCount || a - b);
    expect(expected.length).toBeGreaterThan(12);
    const top = await settledBoard();
    expect(top.body.rankedOutOf).toBe(expected.length);

    const tracked = new Set((await q<{ account_id: number }>('SELECT account_id FROM accounts')).map((row) => row.account_id));
    const ids = (res: { body: { groups: { id: number }[] } }) => res.body.groups.map((g) => g.id);
    expect(ids(top)).toEqual(expected.slice(0, 10));
    top.body.groups.forEach((group: { id: number; rank: number; members: number; owner: { steamId: string } | null }, i: number) => {
      expect(group.rank).toBe(i + 1);
      expect(group.members).toBe(u.group(group.id)!.memberCount);
      const ownerId = u.groupMembers(group.id)[0];
      expect(group.owner?.steamId ?? null).toBe(tracked.has(ownerId) ? u.steamIdOf(ownerId) : null);
    });
    expect(top.body.groups.some((g: { owner: unknown }) => g.owner !== null)).toBe(true);
    expect(top.body.steamSetsGroup).toMatchObject({ id: 1, rank: expected.indexOf(1) + 1, members: u.group(1)!.memberCount });

    // Inclusive bounds; a window centred on a rank; start 0 reads as 1; past the end, nothing.
    expect(ids(await board({ start: 3, end: 7 }).expect(200))).toEqual(expected.slice(2, 7));
    const centred = await board({ start: 1, end: 5, goToLeaderboardRank: 9 }).expect(200);
    expect(centred.body.groups.map((g: { rank: number }) => g.rank)).toEqual([7, 8, 9, 10, 11]);
    expect(ids(centred)).toEqual(expected.slice(6, 11));
    expect(ids(await board({ start: 0, end: 2 }).expect(200))).toEqual(expected.slice(0, 2));
    const beyond = await board({ start: expected.length + 1, end: expected.length + 5 }).expect(200);
    expect(beyond.body).toMatchObject({ groups: [], rankedOutOf: expected.length, steamSetsGroup: { id: 1 } });

    await board({ start: 1, end: 101 }).expect(403);
    await board({ start: 5, end: 4 }).expect(422);
    await board({ leaderboard: 'xp' }).expect(422);
    await ctx.http().post('/v1/leaderboard.getGroupLeaderboard').send({ leaderboard: 'most_members' }).expect(401);

    // An owner who chose to be hidden is not shown.
    const shown = top.body.groups.find((g: { owner: unknown }) => g.owner !== null);
    const shownOwner = u.groupMembers(shown.id)[0];
    await q(
      `INSERT INTO account_settings (account_id, email, hidden) VALUES ($1, 'hidden@users.invalid', true) ON CONFLICT (account_id) DO UPDATE SET hidden = true`,
      [shownOwner],
    );
    const again = await board().expect(200);
    expect(again.body.groups.find((g: { id: number }) => g.id === shown.id).owner).toBeNull();
    await q('UPDATE account_settings SET hidden = false WHERE account_id = $1', [shownOwner]);
  });

  it('should rebuild the board from PostgreSQL, answering 503 while it has none', async () => {
    const before = (await board({ start: 1, end: 100 }).expect(200)).body;
    await ctx.app.get(GroupBoard).rebuild();
    expect((await board({ start: 1, end: 100 }).expect(200)).body).toEqual(before);
    // A flushed Redis: the first reader starts a build and gets 503 with Retry-After; the board comes back whole.
    const redis = new Redis(REDIS_URL);
    try {
      await redis.del(`${ctx.config.redisPrefix}:groups:board:version`);
    } finally {
      redis.disconnect();
    }
    const during = await board();
    if (during.status === 503) expect(during.headers['retry-after']).toBe('60');
    else expect(during.status).toBe(200);
    const deadline = Date.now() + 10_000;
    let after = await board({ start: 1, end: 100 });
    while (after.status !== 200 && Date.now() < deadline) after = await board({ start: 1, end: 100 });
    expect(after.body).toEqual(before);
  });
});
