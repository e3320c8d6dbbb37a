import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { FeedEntry } from '../../change-feed/change-entry';
import { ChangeFeedFollower, POLL_MS } from '../../change-feed/change-feed-follower';
import { Projection } from '../../change-feed/projection';
import { ApiKeyCache } from '../key-cache/api-key-cache';
import { CredentialStreams, RevokedCredential } from './credential-streams';

/**
 * How far behind the feed this process may be and still serve keys from its cache: a revoked key is refused everywhere
 * at most this long after its revocation committed (key-cache/api-key-cache.ts). Two polls' slack over one.
 */
export const KEY_CACHE_SYNC_MS = 3 * POLL_MS;

/**
 * # Credential revocations
 *
 * The one signal that a credential stopped working, in every HTTP process: an API key revoked
 * (account.deleteDeveloperApp, CLI `api-key revoke`) or a session ended (account.logout, account.deleteSession, CLI
 * `session revoke`, a reused refresh token). The revoker records `api-key-revoked` / `session-revoked` in the change
 * feed in the revocation's transaction (src/change-feed), acts on it in its own process at once (`act`) and nudges;
 * every process following the feed acts on the entry when it reads it (within the nudge's latency, at most a poll
 * later without it):
 * - a key leaves the process's verified-key cache (`cache`), which serves nothing while this process is more than
 *   KEY_CACHE_SYNC_MS behind the feed (see key-cache/api-key-cache.ts for why that bounds a revoked key's life);
 * - every event stream opened with the credential, or with a stream ticket it minted, is ended (CredentialStreams).
 * A full load (at boot, or when the feed was pruned past this process) clears the cache and checks the credentials
 * of the open streams in PostgreSQL.
 */
@Injectable()
export class CredentialRevocations implements OnApplicationBootstrap, Projection {
  readonly name = 'credentials';
  readonly cache: ApiKeyCache;
  private live = false;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly feed: ChangeFeedFollower,
    private readonly streams: CredentialStreams,
  ) {
    this.cache = new ApiKeyCache(() => this.live && this.feed.syncedWithin(KEY_CACHE_SYNC_MS));
  }

  onApplicationBootstrap(): void {
    // Only a process serving HTTP verifies keys and holds streams; the CLI revokes, and records, without following.
    if (this.adapterHost.httpAdapter) this.feed.attach(this);
  }

  /** What a process does on a revocation: the revoker's own at once, every other one when it reads the entry. */
  act(credential: RevokedCredential): void {
    if (credential.kind === 'api-key') this.cache.evict(credential.keyId);
    this.streams.end(credential);
  }

  setLive(live: boolean): void {
    this.live = live;
    if (!live) this.cache.clear();
  }

  async load(): Promise<void> {
    this.cache.clear();
    await this.streams.endRevoked();
  }

  apply(entries: readonly FeedEntry[]): Promise<void> {
    for (const { kind, payload } of entries) {
      if (kind === 'api-key-revoked' && typeof payload?.keyId === 'string') this.act({ kind: 'api-key', keyId: payload.keyId });
      if (kind === 'session-revoked' && typeof payload?.sessionId === 'string') this.act({ kind: 'session', sessionId: payload.sessionId });
    }
    return Promise.resolve();
  }
}
