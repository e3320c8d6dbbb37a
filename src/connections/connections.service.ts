import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { Connection } from '../account-records/dto/profile-records.dto';
import { ActionThrottle, ThrottleRule } from '../auth/throttle/action-throttle.service';
import { forbidden, notFound, ProblemException, unprocessable } from '../common/problem/problem.exception';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { OAUTH_PROVIDERS, OAuthProviderName } from '../config/connections-config';
import {
  CONNECTIONS_PER_ACCOUNT,
  type ConnectionProvider,
  UNVERIFIED_DOMAIN_TTL_DAYS,
  VERIFICATION_TXT_PREFIX,
  VERIFY_ATTEMPTS_PER_HOUR,
} from './connection-limits';
import { DomainVerifier } from './domain/domain-verifier';
import { normalizedDomain } from './domain/domain-name';
import { AccountConnectionEntity } from './entities/account-connection.entity';
import { toConnection } from './mappers/connection.mapper';
import { exchangeCodeForIdentity } from './oauth/oauth-client';
import { configuredProvider, OAuthIdentity, OAuthProvider } from './oauth/oauth-providers';
import { V1AccountCreateConnectionResponseBody } from './dto/connections.dto';

/** An advisory lock space: one account's connections change one request at a time (the allowance is counted). */
const CONNECTION_LOCKS = 0x434f4e01;

/** Rows that still count: every one but unverified domains past their time (those are deleted when next seen). */
const LIVE = `(c.verified OR c.provider <> 'domain' OR c.created_at > now() - interval '${UNVERIFIED_DOMAIN_TTL_DAYS} days')`;

const conflict = (title: string, detail: string) => new ProblemException(409, detail, { title });

/** The caller's linked accounts: created through OAuth or a domain check, verified, hidden, reconnected, deleted. */
@Injectable()
export class ConnectionsService {
  private readonly providers = new Map<OAuthProviderName, OAuthProvider>();
  private readonly creates: ThrottleRule;
  private readonly verifies: ThrottleRule = {
    action: 'connection-verifies',
    limit: VERIFY_ATTEMPTS_PER_HOUR,
    windowSeconds: 3600,
    detail: 'This account asked for domain checks too often; retry after the Retry-After delay.',
  };

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly throttle: ActionThrottle,
    private readonly domains: DomainVerifier,
  ) {
    for (const name of OAUTH_PROVIDERS) {
      const provider = configuredProvider(name, config.connections.oauth[name]);
      if (provider) this.providers.set(name, provider);
    }
    this.creates = {
      action: 'connection-creates',
      limit: config.connections.createsPerHour,
      windowSeconds: 3600,
      detail: 'This account created or reconnected connections too often; retry after the Retry-After delay.',
    };
  }

  /** The account's connections, hidden and unverified ones too (account.getSettings), oldest first. */
  async list(accountId: number): Promise<Connection[]> {
    const rows = await this.dataSource
      .getRepository(AccountConnectionEntity)
      .createQueryBuilder('c')
      .where('c.account_id = :accountId', { accountId })
      .andWhere(LIVE)
      .orderBy('c.created_at', 'ASC')
      .addOrderBy('c.connection_id', 'ASC')
      .getMany();
    return rows.map(toConnection);
  }

  async create(accountId: number, provider: ConnectionProvider, code: string): Promise<V1AccountCreateConnectionResponseBody> {
    if (provider === 'domain') {
      const domain = normalizedDomain(code);
      if ('problem' in domain) throw unprocessable(`The domain ${domain.problem}.`, [{ location: 'body.code', message: domain.problem }]);
      await this.throttle.take(this.creates, accountId);
      const verificationCode = randomBytes(15).toString('base64url');
      const row = this.rowOf(accountId, 'domain', { externalId: domain.domain, name: domain.domain, avatar: '' }, false);
      row.verificationCode = verificationCode;
      await this.insertWithin(row);
      return { code: verificationCode, connectionId: row.connectionId };
    }
    const oauth = this.provider(provider);
    // Counted before the provider is asked, so a flood costs the provider nothing.
    await this.throttle.take(this.creates, accountId);
    const identity = await exchangeCodeForIdentity(oauth, code, this.config.connections.redirectUri);
    const row = this.rowOf(accountId, provider, identity, true);
    await this.insertWithin(row);
    return { code: '', connectionId: row.connectionId };
  }

  /** A domain's proof, checked now; an OAuth connection is verified by its exchange already (nothing to do). */
  async verify(accountId: number, connectionId: string): Promise<void> {
    const row = await this.owned(accountId, connectionId);
    if (row.verified) return;
    await this.throttle.take(this.verifies, accountId);
    const check = await this.domains.check(row.externalId, row.verificationCode ?? '');
    if (!check.proven) {
      throw unprocessable(
        `${row.externalId} is not proven yet: publish TXT _badge-stats.${row.externalId} = ${VERIFICATION_TXT_PREFIX}${row.verificationCode}, ` +
          'or that code in https://' +
          `${row.externalId}/.well-known/badge-stats-verification.txt, then ask again.`,
        check.findings.map((message) => ({ location: 'body.connectionId', message })),
      );
    }
    await this.dataSource.query(
      `UPDATE account_connections SET verified = true, verified_at = now(), failed = false WHERE connection_id = $1 AND account_id = $2`,
      [connectionId, accountId],
    );
  }

  async update(accountId: number, connectionId: string, hidden: boolean): Promise<void> {
    const [, count]: [unknown[], number] = await this.dataSource.query(
      `UPDATE account_connections c SET hidden = $3 WHERE c.connection_id = $1 AND c.account_id = $2 AND ${LIVE}`,
      [connectionId, accountId, hidden],
    );
    if (!count) throw this.missing(connectionId);
  }

  /** A new code for the same account of the provider: its name and avatar read again, a failure cleared. */
  async reconnect(accountId: number, connectionId: string, code: string): Promise<void> {
    const row = await this.owned(accountId, connectionId);
    if (row.provider === 'domain')
      throw unprocessable('A domain is not reconnected: account.verifyConnection checks it again.', [
        { location: 'body.connectionId', message: 'names a domain connection' },
      ]);
    const oauth = this.provider(row.provider);
    await this.throttle.take(this.creates, accountId);
    const identity = await exchangeCodeForIdentity(oauth, code, this.config.connections.redirectUri);
    if (identity.externalId !== row.externalId)
      throw unprocessable(
        `The code signs in another ${row.provider} account than the one connected; delete this connection and create one.`,
        [{ location: 'body.code', message: `is for another ${row.provider} account` }],
      );
    await this.dataSource.query(
      `UPDATE account_connections SET name = $3, avatar = $4, failed = false, verified = true, verified_at = now()
        WHERE connection_id = $1 AND account_id = $2`,
      [connectionId, accountId, identity.name, identity.avatar],
    );
  }

  async delete(accountId: number, connectionId: string): Promise<void> {
    const [, count]: [unknown[], number] = await this.dataSource.query(
      'DELETE FROM account_connections WHERE connection_id = $1 AND account_id = $2',
      [connectionId, accountId],
    );
    if (!count) throw this.missing(connectionId);
  }

  private provider(name: OAuthProviderName): OAuthProvider {
    const provider = this.providers.get(name);
    if (!provider) throw forbidden(`Connections with ${name} are not available on this service (no OAuth client is configured for it).`);
    return provider;
  }

  private async owned(accountId: number, connectionId: string): Promise<AccountConnectionEntity> {
    const row = await this.dataSource
      .getRepository(AccountConnectionEntity)
      .createQueryBuilder('c')
      .where('c.connection_id = :connectionId AND c.account_id = :accountId', { connectionId, accountId })
      .andWhere(LIVE)
      .getOne();
    if (!row) throw this.missing(connectionId);
    return row;
  }

  private missing(connectionId: string) {
    return notFound(`This account has no connection ${connectionId}.`);
  }

  /**
   * Inserts within the account's allowance, under its lock: expired unverified domains go first, then the count, then
   * the row. A second connection of one provider, a domain already listed, or an account of a provider linked to
   * another account here are 409s: the request is sound but conflicts with what is stored.
   */
  private async insertWithin(row: AccountConnectionEntity): Promise<void> {
    try {
      await this.dataSource.transaction(async (manager: EntityManager) => {
        await manager.query('SELECT pg_advisory_xact_lock($1, $2)', [CONNECTION_LOCKS, row.accountId]);
        await manager.query(`DELETE FROM account_connections c WHERE c.account_id = $1 AND NOT ${LIVE}`, [row.accountId]);
        const [{ n }]: { n: number }[] = await manager.query('SELECT count(*)::int AS n FROM account_connections WHERE account_id = $1', [
          row.accountId,
        ]);
        if (n >= CONNECTIONS_PER_ACCOUNT)
          throw conflict(
            'Too many connections',
            `An account may hold ${CONNECTIONS_PER_ACCOUNT} connections; delete one before adding another.`,
          );
        await manager.getRepository(AccountConnectionEntity).insert(row);
      });
    } catch (error) {
      const constraint = error instanceof QueryFailedError ? (error.driverError as { constraint?: string }).constraint : undefined;
      if (constraint === 'ux_account_connections_provider')
        throw conflict('Already connected', `This account has a ${row.provider} connection already: reconnect or delete it.`);
      if (constraint === 'ux_account_connections_domain')
        throw conflict('Already connected', `This account lists ${row.externalId} already: verify or delete that connection.`);
      if (constraint === 'ux_account_connections_external')
        throw conflict('Linked elsewhere', `This ${row.provider} account is connected to another account here; delete it there first.`);
      throw error;
    }
  }

  private rowOf(accountId: number, provider: ConnectionProvider, identity: OAuthIdentity, verified: boolean): AccountConnectionEntity {
    return Object.assign(new AccountConnectionEntity(), {
      connectionId: `con_${randomBytes(16).toString('base64url')}`,
      accountId,
      provider,
      externalId: identity.externalId,
      name: identity.name,
      avatar: identity.avatar,
      hidden: false,
      verified,
      failed: false,
      verificationCode: null,
      verifiedAt: verified ? new Date() : null,
    });
  }
}
