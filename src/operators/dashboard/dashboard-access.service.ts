import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { STAFF_ROLES, hasAnyRole, requireAnyRole } from '../../account-records/role-check';
import { hashSecret, randomToken } from '../../auth/secrets';
import { SessionService } from '../../auth/session.service';
import { REDIS, redisKey } from '../../common/redis/redis.module';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

/** Long enough to open the link just minted; short enough that a ticket seen in a URL or a history is useless soon. */
export const DASHBOARD_TICKET_TTL_SECONDS = 60;
/** How long the dashboard's cookie lasts in the browser (and in Redis) before a new ticket is needed. */
export const DASHBOARD_COOKIE_TTL_SECONDS = 30 * 60;
export const DASHBOARD_PATH = '/admin/queues';
export const DASHBOARD_COOKIE = 'queue_dashboard';

const TICKET = /^dtk_[A-Za-z0-9_-]{43}$/;
const COOKIE_VALUE = /^dck_[A-Za-z0-9_-]{43}$/;

interface Holder {
  accountId: number;
  sessionId: string;
}

/**
 * Who may open the queue dashboard: a browser cannot send a bearer token with a page load, so a staff session mints a
 * one-use ticket (operator.createDashboardTicket, like auth.createStreamTicket for streams); opening the dashboard's
 * link redeems it for an HttpOnly, SameSite=Strict cookie scoped to the dashboard's path. Each request of the
 * dashboard (its page, its assets and its polling API) checks the cookie, the session behind it (revoked or expired:
 * refused) and the staff role (revoked: refused at once). Redis keeps only hashes of tickets and cookies.
 */
@Injectable()
export class DashboardAccess {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sessions: SessionService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async mintTicket(holder: Holder): Promise<{ url: string; expiresAt: Date }> {
    await requireAnyRole(this.dataSource, holder.accountId, STAFF_ROLES, 'The queue dashboard');
    const ticket = `dtk_${randomToken(32)}`;
    await this.redis.set(this.key('ticket', ticket), JSON.stringify(holder), 'EX', DASHBOARD_TICKET_TTL_SECONDS);
    const url = new URL(`${DASHBOARD_PATH}?ticket=${ticket}`, this.config.publicBaseUrl).toString();
    return { url, expiresAt: new Date(Date.now() + DASHBOARD_TICKET_TTL_SECONDS * 1000) };
  }

  /** Spends a ticket (once: GETDEL) and answers the cookie value it is exchanged for; null when it opens nothing. */
  async redeem(ticket: string): Promise<string | null> {
    if (!TICKET.test(ticket)) return null;
    const raw = await this.redis.getdel(this.key('ticket', ticket));
    if (!raw) return null;
    const holder = JSON.parse(raw) as Holder;
    if (!(await this.allowed(holder))) return null;
    const cookie = `dck_${randomToken(32)}`;
    await this.redis.set(this.key('cookie', cookie), raw, 'EX', DASHBOARD_COOKIE_TTL_SECONDS);
    return cookie;
  }

  /** Whether the cookie's value opens the dashboard now. */
  async admits(cookie: string | undefined): Promise<boolean> {
    if (!cookie || !COOKIE_VALUE.test(cookie)) return false;
    const raw = await this.redis.get(this.key('cookie', cookie));
    return raw !== null && this.allowed(JSON.parse(raw) as Holder);
  }

  /** Secure cookies where the service is reached over https (PUBLIC_BASE_URL). */
  get secureCookie(): boolean {
    return new URL(this.config.publicBaseUrl).protocol === 'https:';
  }

  private async allowed(holder: Holder): Promise<boolean> {
    return (await this.sessions.isActive(holder.sessionId)) && hasAnyRole(this.dataSource, holder.accountId, STAFF_ROLES);
  }

  private key(kind: 'ticket' | 'cookie', secret: string): string {
    return redisKey(this.config, 'queue-dashboard', kind, hashSecret(secret));
  }
}
