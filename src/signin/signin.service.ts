import { Inject, Injectable } from '@nestjs/common';
import { AccountAdminService } from '../accounts/account-admin.service';
import { ActionThrottle } from '../auth/throttle/action-throttle.service';
import { ClientInfo, SessionService } from '../auth/session.service';
import { JsonLogger } from '../common/logging/json-logger';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { AccountUpdateQueueService } from '../refresh/account-update-queue.service';
import { StatsEvents } from '../stats/events/stats-events';
import { V1AccountLoginBody, V1AccountLoginRequest } from './dto/login.dto';
import { OpenIdVerifier } from './openid-verifier';

/** Sign-in with the platform: a verified assertion becomes a session; a new account is created and queued. */
@Injectable()
export class SignInService {
  private readonly logger = new JsonLogger('SignIn');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly verifier: OpenIdVerifier,
    private readonly throttle: ActionThrottle,
    private readonly accounts: AccountAdminService,
    private readonly updates: AccountUpdateQueueService,
    private readonly stats: StatsEvents,
    private readonly sessions: SessionService,
  ) {}

  async login(assertion: V1AccountLoginRequest, client: ClientInfo & { address: string }): Promise<V1AccountLoginBody> {
    // Counted before anything is checked: each attempt costs the provider a verification call.
    await this.throttle.take(
      {
        action: 'login',
        limit: this.config.signIn.attemptsPerMinute,
        windowSeconds: 60,
        detail: 'Too many sign-in attempts came from this address; retry after the Retry-After delay.',
      },
      client.address,
    );
    const accountId = await this.verifier.verify(assertion);
    const newAccount = await this.accounts.ensureAccount(accountId);
    if (newAccount) await this.firstRefresh(accountId);
    const issued = await this.sessions.create(accountId, client);
    return {
      accountId,
      newAccount,
      sessionToken: issued.sessionToken,
      sessionExpiresAt: issued.session.expiresAt.toISOString(),
      refreshToken: issued.refreshToken,
      refreshExpiresAt: issued.session.refreshExpiresAt.toISOString(),
    };
  }

  /** Ends the calling session at once: its token and refresh token stop working. */
  async logout(sessionId: string): Promise<void> {
    await this.sessions.revoke(sessionId);
  }

  /**
   * A new account has nothing to show until its first refresh. Best effort: the sign-in stands if the queue is away
   * (the user can `account.queueUpdate` later), so a queue outage does not lock people out.
   */
  private async firstRefresh(accountId: number): Promise<void> {
    try {
      await this.stats.publish({ accountsAdded: 1, totalAccounts: 1 });
      await this.updates.queueTrusted({ id: { accountId } }, false);
    } catch (error) {
      this.logger.warn({ msg: 'could not queue the first refresh of a new account', accountId, error: String(error) });
    }
  }
}
