import { EXAMPLE_PNG_BASE64 } from '../images/dto/upload-images.dto';

/**
 * The request body Swagger UI puts in "Try it out" for each operation. Without one it builds a body from every
 * property's example (for `AccountSearch`: an account id, a steamId64 *and* a vanity at once, naming an account
 * that does not exist). These name what a fresh `npm start` has: the simulator's universe (seed 1, 2,000
 * accounts) and account 1, the account of the README's first key (`api-key create --account 1` adds it). Reads
 * of badges, apps and leaderboards find rows once account 1 has been refreshed (`account.queueUpdate`, the
 * README's next step); `test/e2e/openapi-examples.e2e.spec.ts` runs every example against that state.
 */

/**
 * The webhook operations name the caller's own developer app (`keyId`, from account.getSettings) or endpoint
 * (`webhookId`, from account.createWebhook): placeholders to replace, so the examples test does not run them.
 */
const WEBHOOK_ID = 'whk_0123456789abcdef';
export const WEBHOOK_EXAMPLES: Record<string, unknown> = {
  'account.createWebhook': {
    keyId: 'key_0123456789ab',
    url: 'https://example.com/hooks/badge-stats',
    events: ['account.updated', 'maintenance.changed'],
    accountIds: [1],
  },
  'account.listWebhooks': { keyId: 'key_0123456789ab' },
  'account.updateWebhook': { webhookId: WEBHOOK_ID, enabled: true },
  'account.deleteWebhook': { webhookId: WEBHOOK_ID },
  'account.rotateWebhookSecret': { webhookId: WEBHOOK_ID },
  'account.listWebhookDeliveries': { webhookId: WEBHOOK_ID, limit: 20 },
};

/**
 * These name the caller's own image (`imageId`, from account.listImages), connection (`connectionId`, from
 * account.createConnection or account.getSettings), session (`sessionId`, from account.getSettings) or watch
 * (`watchId`, from account.createWatch): placeholders to replace, so the examples test does not run them.
 */
const CONNECTION_ID = 'con_Q2hhbmdlTWVJbUFuRXhhbX';
export const OWN_ITEM_EXAMPLES: Record<string, unknown> = {
  'account.updateImages': { images: [{ imageId: 'img_AbCdEfGhIjKl', active: true }] },
  'account.verifyConnection': { connectionId: CONNECTION_ID },
  'account.updateConnection': { connectionId: CONNECTION_ID, hidden: true },
  'account.reconnectConnection': { connectionId: CONNECTION_ID, code: 'the code the provider redirected back with' },
  'account.deleteConnection': { connectionId: CONNECTION_ID },
  'account.deleteSession': { sessionId: 'ses_0123456789abcdef' },
  'account.deleteWatch': { watchId: 'wch_0123456789abcdef' },
};

/**
 * The maintenance event to change names one the caller created (`uid`, from admin.maintenance.create or
 * admin.maintenance.list): a placeholder, which the examples test replaces with the one its create example made.
 */
export const MAINTENANCE_EXAMPLES: Record<string, unknown> = {
  'admin.maintenance.update': { uid: 'mnt_0123abcd', enabled: false, message: 'Back at 18:00 UTC' },
  'admin.maintenance.delete': { uid: 'mnt_0123abcd' },
};

/** Account 1 of the default simulator: its vanity, a friend of it, an app it holds a badge of, an item it owns. */
export const EXAMPLE_ACCOUNT = { accountId: 1, vanity: 'yeticlutch944', friendAccountId: 119, appId: 626050, itemClassId: 3000021912 };

const account = { id: { accountId: EXAMPLE_ACCOUNT.accountId } };

export const REQUEST_EXAMPLES: Record<string, unknown> = {
  'account.getInfo': account,
  'account.getBadgeStats': account,
  'account.getBadgeHeatmap': account,
  'account.getDataPoints': account,
  'account.getCraftingPlan': { ...account, order: { by: 'costPerXp', direction: 'asc' }, limit: 20 },
  'account.getDropsWorth': { ...account },
  'account.getViewStats': account,
  'account.listFriends': account,
  'account.listLeaderboardHistory': account,
  'account.updateProgress': account,
  'account.listOwnedGroups': account,
  'leaderboard.getGroupLeaderboard': { leaderboard: 'most_members' },
  'account.queueUpdate': account,
  // Staff only (the examples' caller has the role): account 1 is already queued above, so this changes nothing.
  'account.queueInventoryRefresh': { accountIds: [EXAMPLE_ACCOUNT.accountId] },
  'app.queueUpdate': { appIds: [EXAMPLE_ACCOUNT.appId] },
  'group.queueUpdate': { groupIds: [103582791] },
  'account.listApps': { ...account, order: { by: 'playtime', direction: 'desc' }, page: 1 },
  'account.listBadges': { ...account, order: { by: 'xp', direction: 'desc' }, page: 1 },
  'account.compareBadges': { accounts: [account, { vanity: { type: 'steam', value: EXAMPLE_ACCOUNT.vanity } }], mode: 'ownedByAll' },
  'account.findFriendPath': { from: account, to: { id: { accountId: EXAMPLE_ACCOUNT.friendAccountId } }, maxPaths: 5 },
  'account.getTrending': { window: '7d', limit: 10 },
  'account.uploadImages': { images: [{ type: 'avatar', data: EXAMPLE_PNG_BASE64 }] },
  // Not runnable as written: an assertion is signed for one sign-in (see the operation for the simulator's curl line).
  'account.login': {
    openid_ns: 'http://specs.openid.net/auth/2.0',
    openid_mode: 'id_res',
    openid_op_endpoint: 'http://127.0.0.1:3100/openid/login',
    openid_claimed_id: 'https://steamcommunity.com/openid/id/76561197960265729',
    openid_identity: 'https://steamcommunity.com/openid/id/76561197960265729',
    openid_return_to: 'http://localhost:3000/',
    openid_response_nonce: '2026-11-23T10:44:01Z1a2b3c4d',
    openid_assoc_handle: 'sim0123456789ab',
    openid_signed: 'signed,op_endpoint,claimed_id,identity,return_to,response_nonce,assoc_handle',
    openid_sig: 'W0mM3r7g0xQ9sJ5h2k1l8n6p4q3r2s1t0u9v8w7x6y5=',
  },
  'account.createDeveloperApp': { name: 'Stream overlay', description: 'Shows my badges on stream.', environment: 'development' },
  // Name the caller's own app: the `keyId` that createDeveloperApp answered (or account.getSettings lists).
  'account.updateDeveloperApp': { keyId: 'key_0123456789ab', name: 'Stream overlay v2' },
  'account.deleteDeveloperApp': { keyId: 'key_0123456789ab' },
  'account.updateSettings': { hidden: false, language: 'en', vanity: 'flo', countryOverride: 'Germany' },
  'account.updateVanity': { vanity: 'flo' },
  'account.refreshSession': { refreshToken: 'rt_… (printed by `npm run cli -- session create --account 1`)' },
  // The code of the caller's own message (account.sendEmailVerification, once account.updateSettings gave an address).
  'account.verifyEmail': { code: '123456' },
  'account.subscribeEmail': { subscribed: true },
  'account.bookmarkBadge': { badgeId: 'bdg_1', bookmark: true },
  'account.createWatch': { kind: 'rank', accountId: EXAMPLE_ACCOUNT.accountId, leaderboard: 'xp', rank: 100, direction: 'reaches' },
  'kv.set': { namespace: 'ui', key: 'theme', value: '{"mode":"dark"}' },
  'kv.list': { namespace: 'ui' },
  'kv.delete': { namespace: 'ui', key: 'theme' },
  'analytics.getDistribution': { domain: 'accounts', metric: 'xp', scope: 'country', scope_value: 'DE' },
  'analytics.getInequality': { domain: 'accounts', metric: 'playtime', scope: 'global' },
  'analytics.getBivariate': { domain: 'accounts', x: 'xp', y: 'playtime', agg: 'median', scope: 'region', scope_value: 'Europe' },
  'analytics.getMetricByScope': { domain: 'accounts', metric: 'badges', dimension: 'country', agg: 'avg' },
  'analytics.getMyPercentiles': { domain: 'accounts', scope: 'global' },
  'analytics.getTrend': { domain: 'accounts', metric: 'xp', scope: 'country', scope_value: 'DE', window: '30d' },
  'activity.listAccountFeed': { accountId: EXAMPLE_ACCOUNT.accountId, limit: 20 },
  'activity.listGlobalFeed': { limit: 20 },
  'app.listBadges': { appId: EXAMPLE_ACCOUNT.appId },
  'app.listOwners': { appId: EXAMPLE_ACCOUNT.appId, limit: 10 },
  'auth.createStreamTicket': { stream: 'account.subscribe' },
  'badge.listCrafters': { badgeId: 'bdg_1', limit: 10 },
  'badge.listCheapest': { badgeType: 'normal', maxSetCost: 500, sort: 'costPerXp', limit: 20 },
  'badge.getTags': { badgeId: 'bdg_1' },
  'badge.setTags': { badgeId: 'bdg_1', expectedTagsVersion: '0', designs: [{ name: 'pixel art' }] },
  // The review queue starts at the lowest badge ids: the claim holds bdg_1 to bdg_5; the submit settles bdg_2, and the
  // revise corrects that review (its first `reviewVersion` is 1).
  'badge.suggestTags': { badgeId: 'bdg_1' },
  'badge.claimTagReviews': { limit: 5 },
  'badge.submitTagReview': { badgeId: 'bdg_2', colors: ['col_red'], designs: [{ name: 'pixel art' }] },
  'badge.reviseTagReview': { badgeId: 'bdg_2', expectedReviewVersion: '1', colors: ['col_red', 'col_blue'] },
  'badge.tagBadge': { badgeId: 'bdg_2', colors: [{ id: 'col_green', remove: false }], designs: [{ name: 'pixel art' }], metadata: [] },
  'item.findOwners': { itemIds: [EXAMPLE_ACCOUNT.itemClassId], ownersPerItem: 10 },
  'leaderboard.getAccountLeaderboard': { leaderboard: 'xp', start: 1, end: 10 },
  'leaderboard.getBucketLeaders': { leaderboard: 'xp', bucketSize: 10 },
  'leaderboard.getChanges': { leaderboard: 'xp', window: '7d', metric: 'score', direction: 'improvements', limit: 10 },
  'leaderboard.getLowestRanks': { leaderboard: 'xp' },
  'leaderboard.export': { leaderboard: 'xp', start: 1, end: 1000, format: 'csv' },
  'account.export': { ...account, sections: ['profile', 'badges', 'apps'], format: 'ndjson' },
  'leaderboard.previewAccountRank': { ...account, leaderboard: 'xp', value: 5000 },
  'search.getTrending': { source: 'account', window: '7d', limit: 10 },
  // With a user session or a frontend key (`api-key create --frontend`); other keys get 403.
  'analytics.trackEvent': { type: 'search', payload: { source: 'account', query: 'yeticlutch', resultCount: 1 } },
  // Ids the caller does not have are ignored: runnable as written.
  'account.deleteImages': { imageIds: ['img_AbCdEfGhIjKl'] },
  // A domain connection waits for its proof (account.verifyConnection); an OAuth one needs a provider's code.
  'account.createConnection': { provider: 'domain', code: 'example.com' },
  // The staff operations (the caller holds `staff`, `owner` or `developer`): they change account 1's friend, which
  // the README's steps track too (see account.findFriendPath).
  'admin.getAccount': account,
  'admin.updateRoles': { id: { accountId: EXAMPLE_ACCOUNT.friendAccountId }, roles: ['beta', 'translator'] },
  'admin.updateRoleOverride': { id: { accountId: EXAMPLE_ACCOUNT.friendAccountId }, tier: 'tier_2', reason: 'PayPal donation' },
  'admin.updateResources': {
    id: { accountId: EXAMPLE_ACCOUNT.friendAccountId },
    resources: [{ resource: 'max_badge_crafters', value: '500' }],
  },
  'admin.removeVanity': { id: { accountId: EXAMPLE_ACCOUNT.friendAccountId } },
  'admin.listAuditLog': { accountId: EXAMPLE_ACCOUNT.friendAccountId, limit: 20 },
  'admin.maintenance.create': {
    title: 'Database upgrade',
    message: 'Leaderboards are read-only for **ten minutes**.',
    enabled: true,
    paths: ['/leaderboards'],
    endsAt: '2099-01-01T00:00:00Z',
  },
  // One of the donation roles the caller holds.
  'account.updateRole': { role: 'amber' },
  ...WEBHOOK_EXAMPLES,
  ...OWN_ITEM_EXAMPLES,
  ...MAINTENANCE_EXAMPLES,
};
