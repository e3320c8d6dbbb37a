import { EXAMPLE_PNG_BASE64 } from '../../images/dto/upload-images.dto';

/**
 * The request body Swagger UI puts in "Try it out" for each operation. Without one it builds a body from every
 * property's example (for `AccountSearch`: an account id, a steamId64 *and* a vanity at once, naming an account
 * that does not exist). These name what a fresh `npm start` has: the simulator's universe (seed 1, 2,000
 * accounts) and account 1, the account of the README's first key (`api-key create --account 1` adds it). Reads
 * of badges, apps and leaderboards find rows once account 1 has been refreshed (`account.queueUpdate`, the
 * README's next step); `test/e2e/openapi-examples.e2e.spec.ts` runs every example against that state.
 */

/** Account 1 of the default simulator: its vanity, a friend of it, an app it holds a badge of, an item it owns. */
export const EXAMPLE_ACCOUNT = { accountId: 1, vanity: 'yeticlutch944', friendAccountId: 119, appId: 626050, itemClassId: 3000021912 };

const account = { id: { accountId: EXAMPLE_ACCOUNT.accountId } };

export const REQUEST_EXAMPLES: Record<string, unknown> = {
  'account.getInfo': account,
  'account.getBadgeStats': account,
  'account.getBadgeHeatmap': account,
  'account.getDataPoints': account,
  'account.getViewStats': account,
  'account.listFriends': account,
  'account.listLeaderboardHistory': account,
  'account.updateProgress': account,
  'account.listOwnedGroups': account,
  'leaderboard.getGroupLeaderboard': { leaderboard: 'most_members' },
  'account.queueUpdate': account,
  'account.listApps': { ...account, order: { by: 'playtime', direction: 'desc' }, page: 1 },
  'account.listBadges': { ...account, order: { by: 'xp', direction: 'desc' }, page: 1 },
  'account.compareBadges': { accounts: [account, { vanity: { type: 'steam', value: EXAMPLE_ACCOUNT.vanity } }], mode: 'ownedByAll' },
  'account.findFriendPath': { from: account, to: { id: { accountId: EXAMPLE_ACCOUNT.friendAccountId } }, maxPaths: 5 },
  'account.getTrending': { window: '7d', limit: 10 },
  'account.uploadImages': { images: [{ type: 'avatar', data: EXAMPLE_PNG_BASE64 }] },
  'account.refreshSession': { refreshToken: 'rt_… (printed by `npm run cli -- session create --account 1`)' },
  'activity.listAccountFeed': { accountId: EXAMPLE_ACCOUNT.accountId, limit: 20 },
  'activity.listGlobalFeed': { limit: 20 },
  'app.listBadges': { appId: EXAMPLE_ACCOUNT.appId },
  'app.listOwners': { appId: EXAMPLE_ACCOUNT.appId, limit: 10 },
  'auth.createStreamTicket': { stream: 'account.subscribe' },
  'badge.listCrafters': { badgeId: 'bdg_1', limit: 10 },
  'badge.getTags': { badgeId: 'bdg_1' },
  'badge.setTags': { badgeId: 'bdg_1', expectedTagsVersion: '0', designs: [{ name: 'pixel art' }] },
  'item.findOwners': { itemIds: [EXAMPLE_ACCOUNT.itemClassId], ownersPerItem: 10 },
  'leaderboard.getAccountLeaderboard': { leaderboard: 'xp', start: 1, end: 10 },
  'leaderboard.getBucketLeaders': { leaderboard: 'xp', bucketSize: 10 },
  'leaderboard.getChanges': { leaderboard: 'xp', window: '7d', metric: 'score', direction: 'improvements', limit: 10 },
  'leaderboard.getLowestRanks': { leaderboard: 'xp' },
  'leaderboard.previewAccountRank': { ...account, leaderboard: 'xp', value: 5000 },
  'search.getTrending': { source: 'account', window: '7d', limit: 10 },
};
