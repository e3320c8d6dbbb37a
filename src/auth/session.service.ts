import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, MoreThan, Repository } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { JsonLogger } from '../common/logging/json-logger';
import { ChangeFeed } from '../change-feed/change-feed';
import { RotatedRefreshTokenEntity } from './entities/rotated-refresh-token.entity';
import { UserSessionEntity } from './entities/user-session.entity';
import { CredentialRevocations } from './revocations/credential-revocations.service';
import { hashSecret, randomHex, randomToken, REFRESH_TOKEN_PREFIX, SESSION_TOKEN_PREFIX } from './secrets';
import { LAST_SEEN_RESOLUTION_MS, SessionLastSeen } from './session-last-seen';

export interface IssuedSession {
  session: UserSessionEntity;
  sessionToken: string;
  refreshToken: string;
}

export interface ClientInfo {
  ip?: string;
  userAgent?: string;
}

/** Rotated refresh tokens remembered per session (the newest): an older one reused is refused, not detected. */
export const MAX_ROTATED_PER_SESSION = 100;

const DAY_MS = 86_400_000;

/**
 * Web-app sessions: opaque bearer tokens plus rotating refresh tokens, both stored as hashes only.
 *
 * A session is one family of token pairs: signing in makes its first pair, each refresh swaps the pair for a new one
 * and remembers the hash of the refresh token it replaced (`rotated_refresh_tokens`). A replaced refresh token offered
 * again means two parties hold the family (a copied token, whoever refreshed first), so the session is revoked:
 * the reused and the newer pair both stop working. Every pair ends with the session's absolute lifetime
 * (`SESSION_ABSOLUTE_DAYS` from sign-in) whatever the sliding ones (`SESSION_TTL_HOURS`, `REFRESH_TTL_DAYS`) say.
 * Ending a session is recorded in the change feed with it: every process ends the streams it opened (CredentialRevocations).
 */
@Injectable()
export class SessionService {
  private readonly logger = new JsonLogger('SessionService');

  constructor(
    @InjectRepository(UserSessionEntity) private readonly sessions: Repository<UserSessionEntity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly lastSeen: SessionLastSeen,
    private readonly revocations: CredentialRevocations,
    private readonly feed: ChangeFeed,
  ) {}

  async create(accountId: number, client: ClientInfo = {}): Promise<IssuedSession> {
    const now = new Date();
    const tokens = this.newTokens(now, this.absoluteEnd(now));
    const session = await this.sessions.save(
      this.sessions.create({
        sessionId: `ses_${randomHex(8)}`,
        accountId,
        ip: client.ip ?? '',
        userAgent: storedUserAgent(client.userAgent) ?? '',
        createdAt: now,
        lastSeen: now,
        revokedAt: null,
        ...tokens.columns,
      }),
    );
    return { session, sessionToken: tokens.sessionToken, refreshToken: tokens.refreshToken };
  }

  /** The live session a bearer token belongs to, or null. Its `lastSeen` is moved behind the request (SessionLastSeen). */
  async authenticate(token: string): Promise<UserSessionEntity | null> {
    if (!token.startsWith(SESSION_TOKEN_PREFIX)) return null;
    const now = new Date();
    const session = await this.sessions.findOne({
      where: { tokenHash: hashSecret(token), revokedAt: IsNull(), expiresAt: MoreThan(now) },
    });
    if (session && now.getTime() - session.lastSeen.getTime() > LAST_SEEN_RESOLUTION_MS) {
      this.lastSeen.note(session.sessionId, now);
      session.lastSeen = now;
    }
    return session;
  }

  /**
   * Swaps a refresh token for a new session and refresh token. The old pair stops working at once; the conditional
   * update makes two concurrent refreshes with one token yield one winner. A token that was already swapped revokes
   * its session (see the class comment); null then, as for any token that is not current.
   */
  async refresh(refreshToken: string, client: ClientInfo): Promise<IssuedSession | null> {
    if (!refreshToken.startsWith(REFRESH_TOKEN_PREFIX)) return null;
    const now = new Date();
    const oldHash = hashSecret(refreshToken);
    const session = await this.sessions.findOne({
      where: { refreshHash: oldHash, revokedAt: IsNull(), refreshExpiresAt: MoreThan(now) },
    });
    if (!session) {
      await this.revokeIfRotated(oldHash, now);
      return null;
    }
    const absoluteEnd = this.absoluteEnd(session.createdAt);
    if (absoluteEnd <= now) return null;
    const tokens = this.newTokens(now, absoluteEnd);
    const changes = {
      ...tokens.columns,
      lastSeen: now,
      ...(client.ip ? { ip: client.ip } : {}),
      ...(client.userAgent ? { userAgent: storedUserAgent(client.userAgent) } : {}),
    };
    const swapped = await this.sessions.manager.transaction(async (manager) => {
      const result = await manager.update(
        UserSessionEntity,
        { sessionId: session.sessionId, refreshHash: oldHash, revokedAt: IsNull() },
        changes,
      );
      if (!result.affected) return false;
      await manager.insert(RotatedRefreshTokenEntity, {
        refreshHash: oldHash,
        sessionId: session.sessionId,
        rotatedAt: now,
        expiresAt: session.refreshExpiresAt,
      });
      // What is no longer worth remembering: tokens past their own expiry, and all but the newest few.
      await manager.query(
        `DELETE FROM rotated_refresh_tokens
          WHERE session_id = $1
            AND (expires_at <= now() OR refresh_hash NOT IN (
                 SELECT refresh_hash FROM rotated_refresh_tokens WHERE session_id = $1 ORDER BY rotated_at DESC LIMIT $2))`,
        [session.sessionId, MAX_ROTATED_PER_SESSION],
      );
      return true;
    });
    if (!swapped) return null;
    Object.assign(session, changes);
    return { session, sessionToken: tokens.sessionToken, refreshToken: tokens.refreshToken };
  }

  /** Whether the session still works (not revoked, not expired): a stream ticket it minted opens a stream only then. */
  isActive(sessionId: string): Promise<boolean> {
    return this.sessions.exists({ where: { sessionId, revokedAt: IsNull(), expiresAt: MoreThan(new Date()) } });
  }

  /** A live session by id, with its `lastSeen` as this process last noted it. */
  async findLive(sessionId: string): Promise<UserSessionEntity | null> {
    await this.lastSeen.flush();
    return this.sessions.findOne({ where: { sessionId, revokedAt: IsNull(), expiresAt: MoreThan(new Date()) } });
  }

  /** The account's live sessions, oldest first, with their `lastSeen` (this process's notes written first). */
  async listActive(accountId: number): Promise<UserSessionEntity[]> {
    await this.lastSeen.flush();
    return this.sessions.find({
      where: { accountId, revokedAt: IsNull(), expiresAt: MoreThan(new Date()) },
      order: { createdAt: 'ASC' },
    });
  }

  listAll(): Promise<UserSessionEntity[]> {
    return this.sessions.find({ order: { createdAt: 'ASC' } });
  }

  /**
   * Ends a session (of `accountId` only, when given): its tokens stop working at once (they are checked in PostgreSQL),
   * this process ends the streams it opened now, every other one when it reads the change feed entry committed with
   * the revocation (within a second). False when there was no such session that was not ended already.
   */
  async revoke(sessionId: string, accountId?: number): Promise<boolean> {
    const owner = accountId === undefined ? {} : { accountId };
    const revoked = await this.sessions.manager.transaction(async (manager) => {
      const result = await manager.update(UserSessionEntity, { sessionId, revokedAt: IsNull(), ...owner }, { revokedAt: new Date() });
      if (result.affected) await this.feed.record(manager, { kind: 'session-revoked', payload: { sessionId } });
      return Boolean(result.affected);
    });
    if (!revoked) return false;
    this.revocations.act({ kind: 'session', sessionId });
    await this.feed.nudge();
    return true;
  }

  /** A refresh token that was already swapped and is offered again: its whole family (the session) is revoked. */
  private async revokeIfRotated(refreshHash: string, now: Date): Promise<void> {
    const rotated = await this.sessions.manager.findOne(RotatedRefreshTokenEntity, {
      where: { refreshHash, expiresAt: MoreThan(now) },
    });
    if (!rotated || !(await this.revoke(rotated.sessionId))) return;
    this.logger.warn({ msg: 'a rotated refresh token was used again: its session is revoked', sessionId: rotated.sessionId });
  }

  /** When a session begun at `createdAt` ends, however often it is refreshed. */
  private absoluteEnd(createdAt: Date): Date {
    return new Date(createdAt.getTime() + this.config.sessionAbsoluteDays * DAY_MS);
  }

  private newTokens(now: Date, absoluteEnd: Date) {
    const sessionToken = `${SESSION_TOKEN_PREFIX}${randomToken(32)}`;
    const refreshToken = `${REFRESH_TOKEN_PREFIX}${randomToken(32)}`;
    const until = (ms: number) => new Date(Math.min(now.getTime() + ms, absoluteEnd.getTime()));
    return {
      sessionToken,
      refreshToken,
      columns: {
        tokenHash: hashSecret(sessionToken),
        refreshHash: hashSecret(refreshToken),
        expiresAt: until(this.config.sessionTtlHours * 3_600_000),
        refreshExpiresAt: until(this.config.refreshTtlDays * DAY_MS),
      },
    };
  }
}

/** A User-Agent is shown back in the session list: the first 512 characters are plenty, whatever was sent. */
function storedUserAgent(userAgent: string | undefined): string | undefined {
  return userAgent?.slice(0, 512);
}
