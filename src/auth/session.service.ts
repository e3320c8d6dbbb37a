import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, MoreThan, Repository } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { UserSessionEntity } from './entities/user-session.entity';
import { hashSecret, randomHex, randomToken, REFRESH_TOKEN_PREFIX, SESSION_TOKEN_PREFIX } from './secrets';

export interface IssuedSession {
  session: UserSessionEntity;
  sessionToken: string;
  refreshToken: string;
}

export interface ClientInfo {
  ip?: string;
  userAgent?: string;
}

/** Only refresh `lastSeen` once a minute: a write per request would be waste. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

/** Web-app sessions: opaque bearer tokens plus rotating refresh tokens, both stored as hashes only. */
@Injectable()
export class SessionService {
  constructor(
    @InjectRepository(UserSessionEntity) private readonly sessions: Repository<UserSessionEntity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(accountId: number, client: ClientInfo = {}): Promise<IssuedSession> {
    const now = new Date();
    const tokens = this.newTokens(now);
    const session = await this.sessions.save(
      this.sessions.create({
        sessionId: `ses_${randomHex(8)}`,
        accountId,
        ip: client.ip ?? '',
        userAgent: storedUserAgent(client.userAgent) ?? '',
        lastSeen: now,
        revokedAt: null,
        ...tokens.columns,
      }),
    );
    return { session, sessionToken: tokens.sessionToken, refreshToken: tokens.refreshToken };
  }

  /** The live session a bearer token belongs to, or null. */
  async authenticate(token: string): Promise<UserSessionEntity | null> {
    if (!token.startsWith(SESSION_TOKEN_PREFIX)) return null;
    const now = new Date();
    const session = await this.sessions.findOne({
      where: { tokenHash: hashSecret(token), revokedAt: IsNull(), expiresAt: MoreThan(now) },
    });
    if (session && now.getTime() - session.lastSeen.getTime() > LAST_SEEN_RESOLUTION_MS) {
      await this.sessions.update({ sessionId: session.sessionId }, { lastSeen: now });
      session.lastSeen = now;
    }
    return session;
  }

  /**
   * Swaps a refresh token for a new session and refresh token. The old pair stops working at once; the
   * conditional update makes two concurrent refreshes with one token yield one winner.
   */
  async refresh(refreshToken: string, client: ClientInfo): Promise<IssuedSession | null> {
    if (!refreshToken.startsWith(REFRESH_TOKEN_PREFIX)) return null;
    const now = new Date();
    const oldHash = hashSecret(refreshToken);
    const session = await this.sessions.findOne({
      where: { refreshHash: oldHash, revokedAt: IsNull(), refreshExpiresAt: MoreThan(now) },
    });
    if (!session) return null;
    const tokens = this.newTokens(now);
    const changes = {
      ...tokens.columns,
      lastSeen: now,
      ...(client.ip ? { ip: client.ip } : {}),
      ...(client.userAgent ? { userAgent: storedUserAgent(client.userAgent) } : {}),
    };
    const result = await this.sessions.update({ sessionId: session.sessionId, refreshHash: oldHash }, changes);
    if (!result.affected) return null;
    Object.assign(session, changes);
    return { session, sessionToken: tokens.sessionToken, refreshToken: tokens.refreshToken };
  }

  /** Whether the session still works (not revoked, not expired): a stream ticket it minted opens a stream only then. */
  isActive(sessionId: string): Promise<boolean> {
    return this.sessions.exists({ where: { sessionId, revokedAt: IsNull(), expiresAt: MoreThan(new Date()) } });
  }

  listActive(accountId: number): Promise<UserSessionEntity[]> {
    return this.sessions.find({
      where: { accountId, revokedAt: IsNull(), expiresAt: MoreThan(new Date()) },
      order: { createdAt: 'ASC' },
    });
  }

  listAll(): Promise<UserSessionEntity[]> {
    return this.sessions.find({ order: { createdAt: 'ASC' } });
  }

  async revoke(sessionId: string): Promise<boolean> {
    const result = await this.sessions.update({ sessionId, revokedAt: IsNull() }, { revokedAt: new Date() });
    return (result.affected ?? 0) > 0;
  }

  private newTokens(now: Date) {
    const sessionToken = `${SESSION_TOKEN_PREFIX}${randomToken(32)}`;
    const refreshToken = `${REFRESH_TOKEN_PREFIX}${randomToken(32)}`;
    return {
      sessionToken,
      refreshToken,
      columns: {
        tokenHash: hashSecret(sessionToken),
        refreshHash: hashSecret(refreshToken),
        expiresAt: new Date(now.getTime() + this.config.sessionTtlHours * 3_600_000),
        refreshExpiresAt: new Date(now.getTime() + this.config.refreshTtlDays * 86_400_000),
      },
    };
  }
}

/** A User-Agent is shown back in the session list: the first 512 characters are plenty, whatever was sent. */
function storedUserAgent(userAgent: string | undefined): string | undefined {
  return userAgent?.slice(0, 512);
}
