import Redis from 'ioredis';
import { CardReplica } from '../../src/account-records/card-replica/card-replica.service';
import { ChangeFeed } from '../../src/change-feed/change-feed';
import { ChangeFeedFollower } from '../../src/change-feed/change-feed-follower';
import { nudgeChannel } from '../../src/change-feed/change-entry';
import { LeaderboardAccountsService } from '../../src/account-records/cards/leaderboard-accounts.service';
import { AccountAdminService } from '../../src/accounts/account-admin.service';
import { REDIS } from '../../src/common/redis/redis.module';
import { DonationsService } from '../../src/donations/donations.service';
import { killSubscribers } from '../support/subscribers';
import { startTestApp, TestContext } from '../support/test-app';

const ODD = 'Quote " back\\ slash / tab\t nl\n cr\r ctl\u0001\u001f del\u007f é 😀 \u2028\u2029 <>&';

/**
 * The account cards PostgreSQL writes as JSON text (CARD_HEAD_TEXT and CARD_TAIL_TEXT, sent as they are by the largest
 * listings) against the cards built as objects (cardOf) and serialized by JSON.stringify: the same bytes, for names
 * needing escapes, every combination of location parts, roles or none, and a creation date from the platform or from
 * when it was added; the cards each HTTP process renders from its replica (CardReplica) against the same; and the
 * texts each process keeps (CardTextCache) and its replica against the rows they were written from.
 */
describe('account cards written by PostgreSQL', () => {
  let ctx: TestContext;
  const ids = [1, 2, 3, 4, 5, 6];

  beforeAll(async () => {
    ctx = await startTestApp('cardtext');
    for (const id of ids) await ctx.apiKey(id);
    const update = (id: number, set: string, values: unknown[] = []) =>
      ctx.dataSource.query(`UPDATE accounts SET ${set} WHERE account_id = $1`, [id, ...values]);
    await update(
      1,
      `name = $2, avatar = $2, platform_vanity = $2, site_vanity = 'odd', country_name = $2, country_code = 'SE', region = $2,
      state_name = $2, city_name = $2, platform_created_at = '2011-03-04T05:06:07.891234Z', xp = 2147483647, site_score = 12`,
      [ODD],
    );
    await update(
      2,
      `country_name = 'Sweden', country_code = '', state_name = '', city_name = 'Malmö', region = '', economy_ban = 'probation'`,
    );
    await update(3, `country_name = '', state_name = 'Skåne', city_name = NULL, platform_created_at = NULL`);
    await update(4, `country_name = NULL, country_code = 'SE', state_name = NULL, city_name = '', name = ''`);
    await update(
      5,
      `country_name = 'Sweden', country_code = 'SE', state_name = 'Skåne', city_name = 'Lund', region = 'Europe', privacy = 'private'`,
    );
    await ctx.dataSource.query(
      `INSERT INTO account_roles (account_id, role, rating, extras) VALUES
         (1, 'developer', 3, $1), (1, 'donator', 3, NULL), (1, 'moderator', 7, '{}'), (5, 'translator', 0, '{"language":"sv"}')`,
      [JSON.stringify({ note: ODD, nested: { list: [1, 'two', null, true] } })],
    );
  });
  afterAll(() => ctx.close());

  /** Waits (up to 10 s) until `check` holds. */
  const eventually = async (what: string, check: () => Promise<boolean> | boolean) => {
    const deadline = Date.now() + 10_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`not within 10 s: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const replicaCard = async (id: number) => {
    const texts = await ctx.app.get(CardReplica).texts([id]);
    return texts?.has(id) ? (JSON.parse(texts.get(id)!) as Record<string, unknown> & { roles: { role: string }[] }) : null;
  };
  /** Rows were written by hand (behind the service's back): recorded in the change feed, as a writer would. */
  const recorded = (kind: 'rows-changed' | 'update-run', accountIds: number[]) =>
    ctx.app.get(ChangeFeed).record(ctx.dataSource.manager, { kind, accountIds });
  const announced = async (check: () => Promise<boolean>) => {
    await eventually('the replica serves', () => ctx.app.get(CardReplica).serving);
    await recorded('rows-changed', ids);
    await ctx.app.get(ChangeFeed).nudge(ids);
    await eventually('the replica applies what it was told', check);
  };

  it('should write each card as JSON.stringify writes cardOf, byte for byte, from PostgreSQL and from the replica', async () => {
    const cards = ctx.app.get(LeaderboardAccountsService);
    await announced(async () => (await replicaCard(1))?.name === ODD);
    const objects = await cards.byIds(ids);
    const fromReplica = await cards.rawByIds(ids);
    const fromStatement = (await cards.rawByIdsWithUpdated(ids)).cards;
    expect(objects.size).toBe(ids.length);
    expect(ctx.app.get(CardReplica).size).toBe(ids.length);
    for (const id of ids) {
      const expected = JSON.stringify(objects.get(id));
      expect({ id, text: fromReplica.get(id)?.text }).toEqual({ id, text: expected });
      expect({ id, text: fromStatement.get(id)?.text }).toEqual({ id, text: expected });
    }
    // The odd values did reach the cards compared.
    const odd = objects.get(1)! as unknown as Record<string, unknown>;
    expect(odd.name).toBe(ODD);
    expect(odd.createdAt).toBe('2011-03-04T05:06:07.891Z');
    // Roles by rating, then name; an account's roles never reach another's card.
    expect((odd.roles as { role: string }[]).map((role) => role.role)).toEqual(['moderator', 'developer', 'donator']);
    expect((objects.get(5) as unknown as { roles: { role: string }[] }).roles.map((role) => role.role)).toEqual(['translator']);
    expect((objects.get(2) as unknown as { roles: unknown[] }).roles).toEqual([]);
    // An account not stored has no card either way.
    expect((await cards.rawByIds([1, 999_999])).has(999_999)).toBe(false);
  });

  it('should write a card again once its row changes, with its roles read fresh every time', async () => {
    const cards = ctx.app.get(LeaderboardAccountsService);
    await cards.rawByIdsWithUpdated(ids);
    // Account 2's row gets a new version; account 3's row keeps its version (its text is held) but gains a role.
    await ctx.dataSource.query(`UPDATE accounts SET name = 'Renamed' WHERE account_id = 2`);
    await ctx.dataSource.query(`INSERT INTO account_roles (account_id, role, rating) VALUES (3, 'staff', 1)`);
    const texts = (await cards.rawByIdsWithUpdated(ids)).cards;
    const objects = await cards.byIds(ids);
    for (const id of ids) expect({ id, text: texts.get(id)?.text }).toEqual({ id, text: JSON.stringify(objects.get(id)) });
    expect(JSON.parse(texts.get(2)!.text).name).toBe('Renamed');
    expect(JSON.parse(texts.get(3)!.text).roles.map((role: { role: string }) => role.role)).toEqual(['staff']);
    // Written behind the service's back, the replica still holds the cards as they were, until it is told.
    expect((await replicaCard(2))?.name).not.toBe('Renamed');
    await announced(async () => (await replicaCard(2))?.name === 'Renamed');
    expect((await replicaCard(3))?.roles.map((role) => role.role)).toEqual(['staff']);
    const replicated = await cards.rawByIds(ids);
    for (const id of ids) expect({ id, text: replicated.get(id)?.text }).toEqual({ id, text: JSON.stringify(objects.get(id)) });
  });

  it("should read a card again when its writers record it: a donation, a role, an account's completed update", async () => {
    await eventually('the replica serves', () => ctx.app.get(CardReplica).serving);
    await ctx.app.get(DonationsService).record(250, 4);
    await eventually('the donation shows', async () => (await replicaCard(4))?.donated === 250);
    await ctx.grantRole(4, 'donator', 2);
    await eventually('the role shows', async () => (await replicaCard(4))?.roles.map((role) => role.role).join() === 'donator');
    await ctx.revokeRole(4, 'donator');
    await eventually('the role is gone', async () => (await replicaCard(4))?.roles.length === 0);
    // A new account is held once its entry is read (at once: this process's own nudge); its card is there either way.
    await ctx.app.get(AccountAdminService).ensureAccount(7);
    expect((await ctx.app.get(LeaderboardAccountsService).rawByIds([7])).has(7)).toBe(true);
    expect(await replicaCard(7)).not.toBeNull();
    // The worker records each run it commits in the change feed (AccountWriter), in the run's transaction.
    await ctx.dataSource.transaction(async (manager) => {
      await manager.query(`UPDATE accounts SET level = 42 WHERE account_id = 6`);
      await ctx.app.get(ChangeFeed).record(manager, { kind: 'update-run', accountIds: [6] });
    });
    await eventually('the completed update shows', async () => (await replicaCard(6))?.level === 42);
  });

  it('should catch up from its position when its nudges are lost and its follower stopped, without reloading', async () => {
    const replica = ctx.app.get(CardReplica);
    const follower = ctx.app.get(ChangeFeedFollower);
    await eventually('the replica serves', () => replica.serving);
    const loads = follower.stateOf('card-replica')!.loads;
    expect(await killSubscribers(ctx.app.get<Redis>(REDIS), nudgeChannel(ctx.config))).toBe(1);
    await follower.stop();
    await ctx.app.get(DonationsService).record(100, 5);
    // Deaf, it serves the card as it last read it.
    expect((await replicaCard(5))?.donated).toBe(0);
    follower.start();
    await eventually('the donation shows', async () => (await replicaCard(5))?.donated === 100);
    expect(replica.serving).toBe(true);
    expect(follower.stateOf('card-replica')!.loads).toBe(loads);
  });
});
