import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ClientInfo, SessionService } from '../auth/session.service';
import { notFound, unauthorized } from '../common/problem/problem.exception';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { V1AccountRefreshSessionBody } from './dto/refresh-session.dto';
import { V1AccountDeleteSessionResponseBody, V1AccountGetSessionBody } from './dto/session.dto';
import { SessionAccountRow, toSessionBody } from './mappers/session.mapper';

/**
 * The account of a session, its e-mail and roles (by rating, then name: the profile's order) and the resources an
 * operator granted it, in one statement.
 */
const SESSION_ACCOUNT_SQL = `
  SELECT a.account_id, a.name, a.avatar, a.level, a.xp, a.updated_at IS NULL AS is_new, a.donated, s.email,
         (SELECT COALESCE(json_agg(json_build_object('role', r.role, 'rating', r.rating, 'extras', r.extras)
                                   ORDER BY r.rating DESC, r.role ASC), '[]'::json)
            FROM account_roles r WHERE r.account_id = a.account_id) AS roles,
         (SELECT COALESCE(json_object_agg(g.resource, g.value), '{}'::json)
            FROM account_resources g WHERE g.account_id = a.account_id) AS granted
    FROM accounts a LEFT JOIN account_settings s ON s.account_id = a.account_id
   WHERE a.account_id = $1`;

/** The signed-in user's sessions, as operations: the credential itself (tokens, hashes) is auth/'s SessionService. */
@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionService,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async refreshSession(refreshToken: string, client: ClientInfo): Promise<V1AccountRefreshSessionBody> {
    const issued = await this.sessions.refresh(refreshToken, client);
    if (!issued) throw unauthorized('The refresh token is not valid or has expired.');
    return {
      sessionToken: issued.sessionToken,
      sessionExpiresAt: issued.session.expiresAt.toISOString(),
      refreshToken: issued.refreshToken,
      refreshExpiresAt: issued.session.refreshExpiresAt.toISOString(),
    };
  }

  async getSession(accountId: number, sessionId: string): Promise<V1AccountGetSessionBody> {
    const [session, [row]] = await Promise.all([
      this.sessions.findLive(sessionId),
      this.dataSource.query(SESSION_ACCOUNT_SQL, [accountId]) as Promise<SessionAccountRow[]>,
    ]);
    // The guard has just accepted the session: it ended in between (a logout racing this request).
    if (!session) throw unauthorized('The bearer token is not a valid or current user session.');
    if (!row) throw notFound(`Account ${accountId} is not stored.`);
    return toSessionBody(row, session, {
      developerAppsPerAccount: this.config.developerApps.perAccount,
      updateCooldownSeconds: this.config.queue.updateCooldownSeconds,
    });
  }

  /** Ends one of the account's own sessions; another account's, an ended or an unknown one is a 404. */
  async deleteSession(accountId: number, sessionId: string): Promise<V1AccountDeleteSessionResponseBody> {
    if (!(await this.sessions.revoke(sessionId, accountId))) throw notFound(`This account has no live session ${sessionId}.`);
    return {};
  }
}
