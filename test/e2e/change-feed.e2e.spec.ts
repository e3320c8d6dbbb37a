import Redis from 'ioredis';
import { DataSource, EntityManager } from 'typeorm';
import { CardReplica } from '../../src/account-records/card-replica/card-replica.service';
import { FriendGraphCache } from '../../src/accounts/friends/friend-graph-cache.service';
import { ApiKeyService } from '../../src/auth/api-key.service';
import { CredentialRevocations } from '../../src/auth/revocations/credential-revocations.service';
import { ChangeFeed } from '../../src/change-feed/change-feed';
import { nudgeChannel } from '../../src/change-feed/change-entry';
import { ChangeFeedFollower } from '../../src/change-feed/change-feed-follower';
import { ChangeFeedPruner } from '../../src/change-feed/change-feed-pruner';
import { REDIS } from '../../src/common/redis/redis.module';
import { DonationsService } from '../../src/donations/donations.service';
import { RankReplicaService } from '../../src/ranks/replica/rank-replica.service';
import { killSubscribers } from '../support/subscribers';
import { startTestApp, TestContext } from '../support/test-app';

const PROJECTIONS = ['rank-replica', 'card-replica', 'friend-graph', 'credentials'];

/**
 * The four in-process states of an HTTP process follow one change feed (src/change-feed). Each is made to miss what
 * would have woken it (the nudges' subscriber dropped, its process's follower stopped) while changes commit, and must
 * catch up from its position, not by loading again; and when the feed was pruned past that position, each loads in
 * full. The changes are written as their writers write them: the rows and the entry in one transaction.
 */
describe('the change feed', () => {
  let ctx: TestContext;
  let follower: ChangeFeedFollower;
  let feed: ChangeFeed;

  /** Waits (up to 10 s) until `check` holds. */
  const eventually = async (what: string, check: () => Promise<boolean> | boolean) => {
    const deadline = Date.now() + 10_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`not within 10 s: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const loads = () => PROJECTIONS.map((name) => follower.stateOf(name)?.loads);
  const allLive = () => PROJECTIONS.every((name) => follower.stateOf(name)?.live);
  const transaction = (work: (manager: EntityManager) => Promise<unknown>) => ctx.app.get(DataSource).transaction(work);

  /** An account's refresh, as the writer commits it: new scores and friends, and the run's entry. */
  const refreshed = (accountId: number, xp: number, friends: number[]) =>
    transaction(async (manager) => {
      await manager.query('UPDATE accounts SET xp = $2, level = 1, updated_at = now() WHERE account_id = $1', [accountId, xp]);
      await manager.query('DELETE FROM account_friends WHERE account_id = $1', [accountId]);
      for (const friend of friends) {
        await manager.query('INSERT INTO account_friends (account_id, friend_account_id) VALUES ($1, $2)', [accountId, friend]);
      }
      await feed.record(manager, { kind: 'update-run', accountIds: [accountId] });
    });
  /** A key revoked by another process: its row and entry committed, nothing done in this one. */
  const revokedElsewhere = (keyId: string) =>
    transaction(async (manager) => {
      await manager.query('UPDATE api_keys SET revoked_at = now() WHERE key_id = $1', [keyId]);
      await feed.record(manager, { kind: 'api-key-revoked', payload: { keyId } });
    });
  const xpRank = (accountId: number) => ctx.app.get(RankReplicaService).columnRanks(accountId)?.byColumn().get('xp')?.ranks[0];
  const donated = async (accountId: number) => {
    const texts = await ctx.app.get(CardReplica).texts([accountId]);
    return texts?.has(accountId) ? (JSON.parse(texts.get(accountId)!) as { donated: number }).donated : null;
  };
  const friendsOf = async (accountId: number) => [
    ...(await (await ctx.app.get(FriendGraphCache).reader())([accountId], Infinity)).lists[0],
  ];
  /** A key verified once, so that this process's cache holds it. */
  const cachedKey = async (accountId: number) => {
    const secret = await ctx.apiKey(accountId);
    const checked = await ctx.app.get(ApiKeyService).check(secret);
    if (!checked?.ok) throw new Error('the key was not accepted');
    expect(ctx.app.get(CredentialRevocations).cache.get(checked.key.keyId)).toBeDefined();
    return { secret, keyId: checked.key.keyId };
  };
  /** Makes the process deaf: its nudge subscriber dropped, its follower stopped (as while PostgreSQL is away). */
  const deafen = async () => {
    expect(await killSubscribers(ctx.app.get<Redis>(REDIS), nudgeChannel(ctx.config))).toBe(1);
    await follower.stop();
  };

  beforeAll(async () => {
    ctx = await startTestApp('feed');
    follower = ctx.app.get(ChangeFeedFollower);
    feed = ctx.app.get(ChangeFeed);
    for (const id of [1, 2, 3, 4, 5]) await ctx.apiKey(id);
    for (const [id, xp] of [
      [1, 100],
      [2, 200],
      [3, 300],
    ]) {
      await refreshed(id, xp, []);
    }
    await eventually('every projection is live', allLive);
    await eventually('the replica holds the refreshed accounts', () => xpRank(1) === 3);
  });
  afterAll(() => ctx.close());

  it('should keep each projection in step from its position after missed nudges and a stopped follower, without a reload', async () => {
    const before = loads();
    const key = await cachedKey(1);
    await deafen();
    // While it is behind, the process serves no key from its cache: verified in PostgreSQL, the key still works.
    expect(ctx.app.get(CredentialRevocations).cache.active).toBe(false);
    await refreshed(4, 1_000, [1, 2]);
    await ctx.app.get(DonationsService).record(300, 2);
    await revokedElsewhere(key.keyId);
    expect(xpRank(4)).toBeUndefined();
    expect(await donated(2)).toBe(0);

    follower.start();
    await eventually('the rank replica places the refreshed account', () => xpRank(4) === 1 && xpRank(1) === 4);
    await eventually('the card replica reads the donation', async () => (await donated(2)) === 300);
    await eventually('the friend graph reads the new friendships', async () => (await friendsOf(1)).includes(4));
    expect((await friendsOf(2)).sort()).toEqual([4]);
    await eventually('the key cache is trusted again', () => ctx.app.get(CredentialRevocations).cache.active);
    expect(ctx.app.get(CredentialRevocations).cache.get(key.keyId)).toBeUndefined();
    expect(await ctx.app.get(ApiKeyService).check(key.secret)).toEqual({ ok: false, outcome: 'DISABLED' });
    expect(loads()).toEqual(before);
  });

  it('should apply a change at once when nudged, and within a poll when the nudge is lost', async () => {
    await ctx.app.get(DonationsService).record(5, 3);
    // The donation's own nudge woke the follower: the card is read well before the next poll.
    expect(await donated(3)).toBe(5);
    expect(await killSubscribers(ctx.app.get<Redis>(REDIS), nudgeChannel(ctx.config))).toBe(1);
    await ctx.dataSource.transaction(async (manager) => {
      await manager.query('UPDATE accounts SET donated = donated + 7 WHERE account_id = 3');
      await feed.record(manager, { kind: 'donation', accountIds: [3] });
    });
    const started = Date.now();
    await eventually('the poll finds the donation', async () => (await donated(3)) === 12);
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('should load each projection in full when the feed was pruned past its position', async () => {
    const before = loads();
    const key = await cachedKey(5);
    await deafen();
    await refreshed(5, 2_000, [3]);
    await ctx.app.get(DonationsService).record(400, 1);
    await revokedElsewhere(key.keyId);
    // Every entry is past the retention window of 0 ms: the ones this process has not read go (once final: another
    // transaction on the server, which may be any database's, can hold the horizon for a moment).
    const pruner = new ChangeFeedPruner(ctx.app.get(DataSource));
    await eventually('every entry is pruned', async () => {
      await pruner.prune(0);
      const [{ left }] = await ctx.dataSource.query(`SELECT count(*)::int AS left FROM change_feed WHERE kind <> 'pruned'`);
      return left === 0;
    });

    follower.start();
    await eventually('every projection loads again', () => loads().every((count, i) => count === before[i]! + 1) && allLive());
    expect(xpRank(5)).toBe(1);
    expect(await donated(1)).toBe(400);
    expect(await friendsOf(3)).toEqual([5]);
    expect(await ctx.app.get(ApiKeyService).check(key.secret)).toEqual({ ok: false, outcome: 'DISABLED' });
    // Followed from the new position on: a change after the reload arrives as an entry.
    await refreshed(2, 5_000, []);
    await eventually('the rank replica follows on', () => xpRank(2) === 1);
    expect(loads()).toEqual(before.map((count) => count! + 1));
  });
});
