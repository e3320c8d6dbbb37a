import { AccountEntity } from '../../src/account-records/entities/account.entity';
import { scarcityBucket } from '../../src/accounts/mappers/badge-stats.mapper';
import { PlatformSnapshot } from '../../src/refresh/platform-snapshot';
import { counterSnapshot, itemKindOf, profileFields } from '../../src/refresh/profile-fields';
import { redactSecrets } from '../../src/common/logging/json-logger';
import { InventoryItem } from '../../src/platform/client/platform.types';

function snapshot(overrides: Partial<PlatformSnapshot> = {}): PlatformSnapshot {
  return {
    summary: {
      steamId: '76561197960265729',
      communityVisibilityState: 3,
      profileState: 1,
      personaName: 'Ann',
      profileUrl: 'https://steamcommunity.com/id/AnnTheGreat/',
      avatar: '',
      avatarMedium: '',
      avatarFull: '',
      avatarHash: 'ab12',
      personaState: 0,
      timeCreated: 1_000_000_000,
    },
    location: { countryName: null, stateName: null, cityName: null },
    bans: {
      steamId: '76561197960265729',
      communityBanned: false,
      vacBanned: true,
      numberOfVacBans: 2,
      daysSinceLastBan: 10,
      numberOfGameBans: 1,
      economyBan: 'none',
    },
    badges: {
      badges: [
        { badgeId: 1, level: 3, completionTime: 1, xp: 300, scarcity: 10, appId: 10 },
        { badgeId: 1, level: 1, completionTime: 1, xp: 100, scarcity: 10, appId: 10, borderColor: 1 },
        { badgeId: 13, level: 1, completionTime: 1, xp: 100, scarcity: 10 },
      ],
      playerXp: 500,
      playerLevel: 5,
      playerXpNeededToLevelUp: 100,
      playerXpNeededCurrentLevel: 500,
    },
    games: {
      visibility: 'public',
      gameCount: 2,
      games: [
        { appId: 10, playtimeForever: 60, rtimeLastPlayed: 0 },
        { appId: 20, playtimeForever: 40, rtimeLastPlayed: 0 },
      ],
    },
    friends: { visibility: 'public', friends: [{ steamId: '76561197960265730', relationship: 'friend', friendSince: 0 }] },
    groups: { visibility: 'public', groups: [] },
    inventory: { visibility: 'public', totalCount: 0, items: [] },
    ...overrides,
  };
}

const previous = Object.assign(new AccountEntity(), { apps: 7, playtime: 99, friends: 3, platformCreatedAt: null });

describe('profileFields', () => {
  it('should derive the counters from the platform snapshot', () => {
    const fields = profileFields(snapshot(), previous, new Date('2026-01-11T12:00:00Z'));
    expect(fields).toMatchObject({
      name: 'Ann',
      avatar: 'ab12',
      platformVanity: 'annthegreat',
      privacy: 'public',
      badges: 3,
      foilBadges: 1,
      normalBadges: 1,
      specialBadges: 1,
      xp: 500,
      level: 5,
      apps: 2,
      playtime: 100,
      friends: 1,
      vacBans: 2,
      gameBans: 1,
      bans: 3,
      siteScore: 600,
    });
    expect(fields.lastBanDate?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('should keep the last known library and friends when they turn private', () => {
    const fields = profileFields(snapshot({ games: { visibility: 'private' }, friends: { visibility: 'private' } }), previous, new Date());
    expect(fields.appPrivacy).toBe('private');
    expect(fields.friendPrivacy).toBe('private');
    expect(fields.apps).toBeUndefined();
    expect(counterSnapshot({ ...previous, ...fields })).toMatchObject({ apps: 7, playtime: 99, friends: 3 });
  });
});

describe('itemKindOf', () => {
  const item = (tags: [string, string][]) =>
    ({ tags: tags.map(([category, internalName]) => ({ category, internalName })) }) as unknown as InventoryItem;
  it('should tell cards, foil cards, boosters and other items apart by their tags', () => {
    expect(
      itemKindOf(
        item([
          ['item_class', 'item_class_2'],
          ['cardborder', 'cardborder_0'],
        ]),
      ),
    ).toBe('card');
    expect(
      itemKindOf(
        item([
          ['item_class', 'item_class_2'],
          ['cardborder', 'cardborder_1'],
        ]),
      ),
    ).toBe('foil_card');
    expect(itemKindOf(item([['item_class', 'item_class_5']]))).toBe('booster');
    expect(itemKindOf(item([['item_class', 'item_class_4']]))).toBe('other');
  });
});

describe('scarcityBucket', () => {
  it.each([
    [0, '0'],
    [1, '1'],
    [9, '1'],
    [10, '10'],
    [999, '100'],
    [1000, '1000'],
    [4321, '1000'],
  ])('should put %i under "%s"', (value, bucket) => {
    expect(scarcityBucket(value)).toBe(bucket);
  });
});

describe('redactSecrets', () => {
  it('should mask bearer tokens, API keys, session and refresh tokens', () => {
    const key = `sk_0123456789ab_${'x'.repeat(43)}`;
    const line = `Bearer abc.def ${key} auth_${'y'.repeat(43)} rt_${'z'.repeat(43)}`;
    const out = redactSecrets(line);
    expect(out).not.toContain('abc.def');
    expect(out).not.toContain('x'.repeat(43));
    expect(out).not.toContain('y'.repeat(43));
    expect(out).not.toContain('z'.repeat(43));
  });
});
