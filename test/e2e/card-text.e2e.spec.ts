import { LeaderboardAccountsService } from '../../src/account-records/cards/leaderboard-accounts.service';
import { startTestApp, TestContext } from '../support/test-app';

const ODD = 'Quote " back\\ slash / tab\t nl\n cr\r ctl\u0001\u001f del\u007f é 😀 \u2028\u2029 <>&';

/**
 * The account cards PostgreSQL writes as JSON text (CARD_HEAD_TEXT and CARD_TAIL_TEXT, sent as they are by the largest
 * listings) against the cards built as objects (cardOf) and serialized by JSON.stringify: the same bytes, for names
 * needing escapes, every combination of location parts, roles or none, and a creation date from the platform or from
 * when it was added; and the texts each process keeps (CardTextCache) against the rows they were written from.
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
      `name = $2, avatar = $2, platform_vanity = $2, site_vanity = 'odd', country_name = $2, country_code = 'SE',
      state_name = $2, city_name = $2, platform_created_at = '2011-03-04T05:06:07.891234Z', xp = 2147483647, site_score = 12`,
      [ODD],
    );
    await update(2, `country_name = 'Sweden', country_code = '', state_name = '', city_name = 'Malmö', economy_ban = 'probation'`);
    await update(3, `country_name = '', state_name = 'Skåne', city_name = NULL, platform_created_at = NULL`);
    await update(4, `country_name = NULL, country_code = 'SE', state_name = NULL, city_name = '', name = ''`);
    await update(5, `country_name = 'Sweden', country_code = 'SE', state_name = 'Skåne', city_name = 'Lund', privacy = 'private'`);
    await ctx.dataSource.query(
      `INSERT INTO account_roles (account_id, role, rating, extras) VALUES
         (1, 'developer', 3, $1), (1, 'donator', 3, NULL), (1, 'moderator', 7, '{}'), (5, 'translator', 0, '{"language":"sv"}')`,
      [JSON.stringify({ note: ODD, nested: { list: [1, 'two', null, true] } })],
    );
  });
  afterAll(() => ctx.close());

  it('should write each card as JSON.stringify writes cardOf, byte for byte', async () => {
    const cards = ctx.app.get(LeaderboardAccountsService);
    const objects = await cards.byIds(ids);
    const texts = await cards.rawByIds(ids);
    const withUpdated = (await cards.rawByIdsWithUpdated(ids)).cards;
    expect(objects.size).toBe(ids.length);
    for (const id of ids) {
      const expected = JSON.stringify(objects.get(id));
      expect({ id, text: texts.get(id)?.text }).toEqual({ id, text: expected });
      expect({ id, text: withUpdated.get(id)?.text }).toEqual({ id, text: expected });
    }
    // The odd values did reach the cards compared.
    const odd = objects.get(1)! as unknown as Record<string, unknown>;
    expect(odd.name).toBe(ODD);
    expect(odd.createdAt).toBe('2011-03-04T05:06:07.891Z');
    // Roles by rating, then name; an account's roles never reach another's card.
    expect((odd.roles as { role: string }[]).map((role) => role.role)).toEqual(['moderator', 'developer', 'donator']);
    expect((objects.get(5) as unknown as { roles: { role: string }[] }).roles.map((role) => role.role)).toEqual(['translator']);
    expect((objects.get(2) as unknown as { roles: unknown[] }).roles).toEqual([]);
  });

  it('should write a card again once its row changes, with its roles read fresh every time', async () => {
    const cards = ctx.app.get(LeaderboardAccountsService);
    await cards.rawByIds(ids);
    // Account 2's row gets a new version; account 3's row keeps its version (its text is held) but gains a role.
    await ctx.dataSource.query(`UPDATE accounts SET name = 'Renamed' WHERE account_id = 2`);
    await ctx.dataSource.query(`INSERT INTO account_roles (account_id, role, rating) VALUES (3, 'staff', 1)`);
    const texts = await cards.rawByIds(ids);
    const objects = await cards.byIds(ids);
    for (const id of ids) expect({ id, text: texts.get(id)?.text }).toEqual({ id, text: JSON.stringify(objects.get(id)) });
    expect(JSON.parse(texts.get(2)!.text).name).toBe('Renamed');
    expect(JSON.parse(texts.get(3)!.text).roles.map((role: { role: string }) => role.role)).toEqual(['staff']);
  });
});
