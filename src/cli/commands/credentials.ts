import { INestApplicationContext } from '@nestjs/common';
import { AccountAdminService } from '../../accounts/account-admin.service';
import { Role } from '../../account-records/account.enums';
import { CLI_ACTOR } from '../../staff/audit-log';
import { StaffChanges } from '../../staff/staff-changes.service';
import { ApiKeyService } from '../../auth/api-key.service';
import { DeveloperAppEnvironment } from '../../auth/entities/api-key.entity';
import { SessionService } from '../../auth/session.service';
import { out } from '../cli-app';

/** API keys, user sessions and roles. A new secret is the last line of stdout, so `| tail -1` captures it. */

export async function createApiKey(
  app: INestApplicationContext,
  options: { account: number; name: string; description?: string; environment: DeveloperAppEnvironment; frontend?: boolean },
): Promise<void> {
  await app.get(AccountAdminService).ensureAccount(options.account);
  const { key, secret } = await app.get(ApiKeyService).create({
    accountId: options.account,
    name: options.name,
    description: options.description,
    environment: options.environment,
    frontend: options.frontend,
  });
  const kind = key.frontend ? `${key.environment}, frontend` : key.environment;
  out(`created API key ${key.keyId} for account ${options.account} (${kind}); the secret follows and is not shown again:`);
  out(secret);
}

export async function listApiKeys(app: INestApplicationContext, options: { account?: number }): Promise<void> {
  const keys = app.get(ApiKeyService);
  const list = options.account === undefined ? await keys.listAll() : await keys.listForAccount(options.account, true);
  for (const key of list) {
    out([key.keyId, key.accountId, key.environment, ApiKeyService.masked(key), key.revokedAt ? 'revoked' : 'active', key.name].join('\t'));
  }
}

export async function revokeApiKey(app: INestApplicationContext, keyId: string): Promise<void> {
  out((await app.get(ApiKeyService).revoke(keyId)) ? `revoked ${keyId}` : `no active key ${keyId}`);
}

export async function createSession(
  app: INestApplicationContext,
  options: { account: number; email?: string; ip: string; userAgent: string },
): Promise<void> {
  await app.get(AccountAdminService).ensureAccount(options.account, options.email);
  const issued = await app.get(SessionService).create(options.account, { ip: options.ip, userAgent: options.userAgent });
  out(`created session ${issued.session.sessionId} for account ${options.account}, expires ${issued.session.expiresAt.toISOString()}`);
  out(`refresh token: ${issued.refreshToken}`);
  out(issued.sessionToken);
}

export async function listSessions(app: INestApplicationContext, options: { account?: number }): Promise<void> {
  const sessions = app.get(SessionService);
  const list = options.account === undefined ? await sessions.listAll() : await sessions.listActive(options.account);
  for (const s of list) out([s.sessionId, s.accountId, s.expiresAt.toISOString(), s.revokedAt ? 'revoked' : 'active', s.ip].join('\t'));
}

export async function revokeSession(app: INestApplicationContext, sessionId: string): Promise<void> {
  out((await app.get(SessionService).revoke(sessionId)) ? `revoked ${sessionId}` : `no active session ${sessionId}`);
}

export async function changeRole(
  app: INestApplicationContext,
  action: 'grant' | 'revoke',
  options: { account: number; role: Role },
): Promise<void> {
  // The same service as admin.updateRoles: the change is audited (as the CLI's) and reaches every process's copies.
  const staff = app.get(StaffChanges);
  if (action === 'grant') {
    await app.get(AccountAdminService).ensureAccount(options.account);
    await staff.grantRole(CLI_ACTOR, options.account, options.role);
  } else if (!(await staff.revokeRole(CLI_ACTOR, options.account, options.role))) {
    out(`account ${options.account} does not hold ${options.role}`);
    return;
  }
  out(`${action === 'grant' ? 'granted' : 'revoked'} ${options.role} for account ${options.account}`);
}
