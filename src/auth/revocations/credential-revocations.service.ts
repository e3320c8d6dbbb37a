import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { FeedEntry } from '../../change-feed/change-entry';
import { ChangeFeedFollower, POLL_MS, Projection } from '../../change-feed/change-feed-follower';
import { ApiKeyCache } from '../key-cache/api-key-cache';
import { CredentialStreams, RevokedCredential } from './credential-streams';

/** How far behind the feed this process may be and still serve keys from its cache (key-cache/api-key-cache.ts). */
export const KEY_CACHE_SYNC_MS = 3 * POLL_MS;

/**
 * # Credential revocations
 *
 * An API key revoked (account.deleteDeveloperApp, CLI `api-key revoke`) or a session ended (account.logout,
 * account.deleteSession, CLI `session revoke`, a reused refresh token) is recorded in the change feed with it
 * (src/change-feed); the revoker acts at once in its own process (`act`) and nudges, every HTTP process acts when it
 * reads the entry (milliseconds when nudged, a poll later without): the key leaves its verified-key cache, and every
 * event stream opened with the credential (or a stream ticket it minted) is ended (CredentialStreams). A full load
 * (boot, the feed pruned past this process) clears the cache and checks the open streams' credentials in PostgreSQL.
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
