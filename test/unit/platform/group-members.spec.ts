import { gidOf, groupId64Of } from 'src/platform/client/group-ids';
import { parseMembersListXml } from 'src/platform/client/group-xml';
import { PlatformClient } from 'src/platform/client/platform-client';
import { PlatformSimulator } from 'src/platform/simulator';

/** The community group members list: the simulator's XML read back by the client equals the universe's truth. */
describe('group members list (simulator and client)', () => {
  const sim = new PlatformSimulator({ seed: 5, accounts: 3000, countRequests: true });
  const u = sim.universe;
  let client: PlatformClient;

  beforeAll(async () => {
    const base = `http://127.0.0.1:${await sim.listen(0)}`;
    client = new PlatformClient({ apiUrl: base, communityUrl: base, apiKey: null, timeoutMs: 5000, maxRetries: 1, retryBaseMs: 10 });
  });
  afterAll(() => sim.close());

  it('should page 1,000 members at a time, owner first, with the group’s details', async () => {
    const truth = u.group(1)!;
    const members = u.groupMembers(1);
    expect(members.length).toBeGreaterThan(1000);
    const first = await client.getGroupMembers(1);
    const second = await client.getGroupMembers(1, 2);
    if (first.visibility !== 'public' || second.visibility !== 'public') throw new Error('group 1 is readable');
    expect(first).toMatchObject({
      groupId64: groupId64Of(1),
      name: truth.name,
      vanity: truth.vanity,
      summary: truth.summary,
      avatarIcon: `https://avatars.steamstatic.com/${truth.avatarHash}.jpg`,
      memberCount: members.length,
      totalPages: 2,
      currentPage: 1,
    });
    expect(first.members).toHaveLength(1000);
    expect([...first.members, ...second.members]).toEqual(members.map((id) => u.steamIdOf(id)));
    // Every member is in the group by its own group list; the owner is listed first, the rest by account id.
    expect(members.every((id) => u.groups(id).includes('1'))).toBe(true);
    expect(members.slice(1)).toEqual([...members.slice(1)].sort((a, b) => a - b));
    expect(sim.requestsFor(`/gid/${groupId64Of(1)}/memberslistxml/`)).toBe(2);
  });

  it('should answer hidden groups with 403 and unknown ones with 404', async () => {
    const hidden = Array.from({ length: u.groupCount }, (_, i) => i + 1).find((gid) => u.group(gid)!.hidden)!;
    expect(await client.getGroupMembers(hidden)).toEqual({ visibility: 'hidden' });
    expect(await client.getGroupMembers(u.groupCount + 1)).toEqual({ visibility: 'missing' });
  });

  it('should read CDATA, entities and split sections, and refuse what is not a members list', () => {
    const xml = `<?xml version="1.0"?><memberList><groupID64>103582791429521412</groupID64><groupDetails>
      <groupName><![CDATA[A ]]]]><![CDATA[> B]]></groupName><groupURL>tom&amp;jerry&#33;</groupURL><memberCount>1,234</memberCount>
      </groupDetails><memberCount>1234</memberCount><totalPages>2</totalPages><currentPage>1</currentPage>
      <members><steamID64>76561197960265729</steamID64>\n<steamID64>76561197960265730</steamID64></members></memberList>`;
    expect(parseMembersListXml(xml)).toMatchObject({
      groupId64: '103582791429521412',
      name: 'A ]]> B',
      vanity: 'tom&jerry!',
      memberCount: 1234,
      totalPages: 2,
      members: ['76561197960265729', '76561197960265730'],
    });
    expect(parseMembersListXml('<html><body>Too many requests</body></html>')).toBeNull();
  });

  it('should fold 64-bit group ids to gids', () => {
    expect(gidOf('4')).toBe(4);
    expect(gidOf(groupId64Of(4))).toBe(4);
    expect(gidOf('0')).toBeNull();
    expect(gidOf('x')).toBeNull();
    expect(gidOf('4294967296')).toBeNull();
  });
});
