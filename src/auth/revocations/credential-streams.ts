import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { Principal } from '../../common/auth/principal';
import { JsonLogger } from '../../common/logging/json-logger';

/** Longer than a stream's open takes between the check of its credential and its watch (a rate-limit round trip). */
const RECENT_MS = 10_000;

/** A credential that can be revoked: an API key or a user session (a stream ticket stands for the one that minted it). */
export type RevokedCredential = { kind: 'api-key'; keyId: string } | { kind: 'session'; sessionId: string };

export function credentialOf(principal: Principal): RevokedCredential {
  return principal.kind === 'api-key' ? { kind: 'api-key', keyId: principal.keyId } : { kind: 'session', sessionId: principal.sessionId };
}

function nameOf(credential: RevokedCredential): string {
  return credential.kind === 'api-key' ? `key:${credential.keyId}` : `session:${credential.sessionId}`;
}

/**
 * The event streams this process serves, by the credential each was opened with (its API key or session, or the one
 * behind its stream ticket). A credential is checked once, when its stream opens; a stream runs for hours. So when a
 * credential is revoked (CredentialRevocations hears it on every process), its streams here are ended: the
 * connection is closed, nothing more is sent, and a reconnecting EventSource is refused (401) and stops.
 *
 * Ended by closing the socket rather than completing the stream: the credential is checked by the global guard, before
 * the handler's Observable exists, and a Nest interceptor (the only way into it from here) would turn a stream's
 * opening errors into an empty 200 instead of their problem answer.
 */
@Injectable()
export class CredentialStreams {
  private readonly logger = new JsonLogger('CredentialStreams');
  private readonly open = new Map<string, Set<Response>>();
  /**
   * Credentials revoked in the last RECENT_MS, by the time heard: a stream whose credential was checked just before
   * its revocation was heard, and is watched just after, would otherwise be missed.
   */
  private readonly recent = new Map<string, number>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Watches the stream answered on `response` until it closes; false (nothing watched) when its credential was revoked
   * since it was checked.
   */
  watch(principal: Principal, response: Response): boolean {
    const name = nameOf(credentialOf(principal));
    if (this.recent.has(name)) return false;
    let streams = this.open.get(name);
    if (!streams) this.open.set(name, (streams = new Set()));
    streams.add(response);
    response.once('close', () => {
      streams.delete(response);
      if (!streams.size && this.open.get(name) === streams) this.open.delete(name);
    });
    return true;
  }

  /** Ends every stream of `credential` in this process; how many there were. */
  end(credential: RevokedCredential): number {
    const name = nameOf(credential);
    this.remember(name);
    const streams = this.open.get(name);
    if (!streams) return 0;
    this.open.delete(name);
    // Destroying the answer closes its connection: Nest's SSE router sees the close and unsubscribes the stream.
    for (const response of streams) response.destroy();
    return streams.size;
  }

  private remember(name: string): void {
    const now = Date.now();
    // Oldest first (insertion order): drop the entries past RECENT_MS, then note this one as the newest.
    for (const [old, at] of this.recent) {
      if (now - at < RECENT_MS) break;
      this.recent.delete(old);
    }
    this.recent.delete(name);
    this.recent.set(name, now);
  }

  /** How many streams of `credential` are open in this process (for tests and logs). */
  count(credential: RevokedCredential): number {
    return this.open.get(nameOf(credential))?.size ?? 0;
  }

  /**
   * Ends the streams of every credential that is no longer valid, asked of PostgreSQL in one statement per kind: when
   * revocations may have been missed (CredentialRevocations' full load).
   */
  async endRevoked(): Promise<void> {
    const keys: string[] = [];
    const sessions: string[] = [];
    for (const name of this.open.keys()) {
      if (name.startsWith('key:')) keys.push(name.slice('key:'.length));
      else sessions.push(name.slice('session:'.length));
    }
    if (!keys.length && !sessions.length) return;
    const [liveKeys, liveSessions] = await Promise.all([
      this.live('SELECT key_id AS id FROM api_keys WHERE key_id = ANY($1) AND revoked_at IS NULL', keys),
      this.live('SELECT session_id AS id FROM user_sessions WHERE session_id = ANY($1) AND revoked_at IS NULL', sessions),
    ]);
    let ended = 0;
    for (const keyId of keys) if (!liveKeys.has(keyId)) ended += this.end({ kind: 'api-key', keyId });
    for (const sessionId of sessions) if (!liveSessions.has(sessionId)) ended += this.end({ kind: 'session', sessionId });
    if (ended) this.logger.log({ msg: 'ended streams of credentials revoked while unheard', ended });
  }

  private async live(sql: string, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows: { id: string }[] = await this.dataSource.query(sql, [ids]);
    return new Set(rows.map((row) => row.id));
  }
}
