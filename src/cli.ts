import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { DynamicModule, INestApplicationContext, Module } from '@nestjs/common';
import { AccountAdminService } from './accounts/account-admin.service';
import { ROLES, Role } from './accounts/account.enums';
import { AccountsModule } from './accounts/accounts.module';
import { ApiKeyService } from './auth/api-key.service';
import { AuthModule } from './auth/auth.module';
import { DEVELOPER_APP_ENVIRONMENTS, DeveloperAppEnvironment } from './auth/entities/api-key.entity';
import { SessionService } from './auth/session.service';
import { configureLogging, nestLogger } from './common/logging/pino';
import { AppConfig } from './config/app-config';
import { processConfig } from './config/config.module';
import { QueueModule } from './common/queue/queue.module';
import { CoreModule } from './core.module';
import { DonationsModule } from './donations/donations.module';
import { DonationsService } from './donations/donations.service';
import { MaintenanceService } from './site/maintenance.service';
import { SiteModule } from './site/site.module';
import { prepareDatabase } from './database/prepare-database';
import { derivedStateKeepers, rebuildDerivedState } from './derived/derived-state';
import { BadgeHoldersModule } from './badges/holders/badge-holders.module';
import { ValueLeadersModule } from './leaderboards/value-leaders/value-leaders.module';
import { RanksModule } from './ranks/ranks.module';
import { PlatformTotalsModule } from './stats/totals/platform-totals.module';
import { exitOnBootFailure } from './boot';

const USAGE = `usage: npm run cli -- <command>
  api-key create --account <accountId> [--name N] [--description D] [--environment production|development|staging]
  api-key list [--account <accountId>]
  api-key revoke <keyId>
  session create --account <accountId> [--email E] [--ip IP] [--user-agent UA]
  session list [--account <accountId>]
  session revoke <sessionId>
  role grant --account <accountId> --role <role>
  role revoke --account <accountId> --role <role>
  maintenance create --title T --message M [--paths "*,/leaderboards"] [--starts ISO] [--ends ISO]
  maintenance list | enable <uid> | disable <uid> | delete <uid>
  donation record --cents N [--account <accountId>] [--at ISO]
  derived rebuild [--only name[,name…]]   recompute derived state (totals, holder statistics, ranks) from PostgreSQL
A new secret is printed as the last line of stdout, once; only its hash is stored.`;

class UsageError extends Error {}

@Module({})
class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        CoreModule.forRoot(config),
        QueueModule,
        AuthModule,
        AccountsModule,
        SiteModule,
        DonationsModule,
        // Every keeper of derived state, for `derived rebuild`.
        PlatformTotalsModule,
        BadgeHoldersModule,
        ValueLeadersModule,
        RanksModule,
      ],
    };
  }
}

function parse(argv: string[]) {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    if (argv[i].startsWith('--')) {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`${argv[i]} needs a value`);
      flags.set(argv[i].slice(2), value);
      i++;
    } else positional.push(argv[i]);
  }
  return { positional, flags };
}

function accountIdFlag(flags: Map<string, string>, required: true): number;
function accountIdFlag(flags: Map<string, string>, required: false): number | undefined;
function accountIdFlag(flags: Map<string, string>, required: boolean): number | undefined {
  const raw = flags.get('account');
  if (raw === undefined) {
    if (required) throw new UsageError('--account is required');
    return undefined;
  }
  if (!/^\d+$/.test(raw) || Number(raw) > 2 ** 31 - 1) throw new UsageError('--account must be an account id (0..2147483647)');
  return Number(raw);
}

function dateFlag(flags: Map<string, string>, name: string): Date | undefined {
  const raw = flags.get(name);
  if (raw === undefined) return undefined;
  const date = new Date(raw);
  if (Number.isNaN(date.getTime())) throw new UsageError(`--${name} must be an ISO date-time`);
  return date;
}

async function maintenanceCommand(maintenance: MaintenanceService, action: string, uid: string | undefined, flags: Map<string, string>) {
  if (action === 'create') {
    const title = flags.get('title');
    const message = flags.get('message');
    if (!title || !message) throw new UsageError('maintenance create needs --title and --message');
    const paths = flags
      .get('paths')
      ?.split(',')
      .map((path) => path.trim())
      .filter(Boolean);
    const event = await maintenance.create({ title, message, paths, startsAt: dateFlag(flags, 'starts'), endsAt: dateFlag(flags, 'ends') });
    out(`created ${event.uid}`);
  } else if (action === 'list') {
    for (const event of await maintenance.current())
      out([event.uid, event.enabled ? 'enabled' : 'disabled', event.paths?.join(','), event.title].join('\t'));
  } else if (['enable', 'disable', 'delete'].includes(action)) {
    if (!uid) throw new UsageError(`maintenance ${action} needs a uid`);
    const done = action === 'delete' ? await maintenance.remove(uid) : await maintenance.setEnabled(uid, action === 'enable');
    out(done ? `${action}d ${uid}` : `no maintenance event ${uid}`);
  } else {
    throw new UsageError(`unknown command "maintenance ${action}"`);
  }
}

/** Rebuilds every keeper of derived state, or those `--only` names, one after another. */
async function derivedCommand(app: INestApplicationContext, only: string | undefined): Promise<void> {
  const names = only
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const known = [...derivedStateKeepers(app).keys()];
  const unknown = names?.filter((name) => !known.includes(name)) ?? [];
  if (unknown.length) throw new UsageError(`unknown derived state ${unknown.join(', ')}; known: ${known.join(', ')}`);
  for (const name of await rebuildDerivedState(app, names)) out(`rebuilt ${name}`);
}

function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function run(argv: string[]): Promise<void> {
  // Warnings and errors only, on stderr: stdout is the command's output (a new secret is its last line).
  configureLogging({ process: 'cli', level: 'warn', stream: process.stderr });
  const { positional, flags } = parse(argv);
  const [area, action, target] = positional;
  if (!area || !action) throw new UsageError('missing command');
  const config = processConfig();
  await prepareDatabase(config);
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(config), { logger: nestLogger() });
  try {
    const accounts = app.get(AccountAdminService);
    const keys = app.get(ApiKeyService);
    const sessions = app.get(SessionService);
    const command = `${area} ${action}`;
    if (command === 'api-key create') {
      const accountId = accountIdFlag(flags, true);
      const environment = (flags.get('environment') ?? 'production') as DeveloperAppEnvironment;
      if (!DEVELOPER_APP_ENVIRONMENTS.includes(environment))
        throw new UsageError(`--environment must be one of ${DEVELOPER_APP_ENVIRONMENTS.join(', ')}`);
      await accounts.ensureAccount(accountId);
      const { key, secret } = await keys.create({
        accountId,
        name: flags.get('name') ?? 'CLI key',
        description: flags.get('description'),
        environment,
      });
      out(`created API key ${key.keyId} for account ${accountId} (${key.environment}); the secret follows and is not shown again:`);
      out(secret);
    } else if (command === 'api-key list') {
      const accountId = accountIdFlag(flags, false);
      const list = accountId === undefined ? await keys.listAll() : await keys.listForAccount(accountId, true);
      for (const key of list) {
        out(
          [key.keyId, key.accountId, key.environment, ApiKeyService.masked(key), key.revokedAt ? 'revoked' : 'active', key.name].join('\t'),
        );
      }
    } else if (command === 'api-key revoke') {
      if (!target) throw new UsageError('api-key revoke needs a key id');
      out((await keys.revoke(target)) ? `revoked ${target}` : `no active key ${target}`);
    } else if (command === 'session create') {
      const accountId = accountIdFlag(flags, true);
      await accounts.ensureAccount(accountId, flags.get('email'));
      const issued = await sessions.create(accountId, { ip: flags.get('ip') ?? '127.0.0.1', userAgent: flags.get('user-agent') ?? 'cli' });
      out(`created session ${issued.session.sessionId} for account ${accountId}, expires ${issued.session.expiresAt.toISOString()}`);
      out(`refresh token: ${issued.refreshToken}`);
      out(issued.sessionToken);
    } else if (command === 'session list') {
      const accountId = accountIdFlag(flags, false);
      const list = accountId === undefined ? await sessions.listAll() : await sessions.listActive(accountId);
      for (const s of list) out([s.sessionId, s.accountId, s.expiresAt.toISOString(), s.revokedAt ? 'revoked' : 'active', s.ip].join('\t'));
    } else if (command === 'session revoke') {
      if (!target) throw new UsageError('session revoke needs a session id');
      out((await sessions.revoke(target)) ? `revoked ${target}` : `no active session ${target}`);
    } else if (command === 'role grant' || command === 'role revoke') {
      const accountId = accountIdFlag(flags, true);
      const role = flags.get('role') as Role;
      if (!ROLES.includes(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
      if (action === 'grant') await accounts.grantRole(accountId, role);
      else await accounts.revokeRole(accountId, role);
      out(`${action === 'grant' ? 'granted' : 'revoked'} ${role} for account ${accountId}`);
    } else if (area === 'maintenance') {
      await maintenanceCommand(app.get(MaintenanceService), action, target, flags);
    } else if (command === 'donation record') {
      const cents = Number(flags.get('cents'));
      if (!Number.isInteger(cents) || cents < 1) throw new UsageError('--cents must be a positive whole number');
      const accountId = accountIdFlag(flags, false);
      if (accountId !== undefined) await accounts.ensureAccount(accountId);
      await app.get(DonationsService).record(cents, accountId ?? null, dateFlag(flags, 'at') ?? new Date());
      out(`recorded a donation of ${cents} cents${accountId === undefined ? ' (anonymous)' : ` from account ${accountId}`}`);
    } else if (command === 'derived rebuild') {
      await derivedCommand(app, flags.get('only'));
    } else {
      throw new UsageError(`unknown command "${command}"`);
    }
  } finally {
    await app.close();
  }
}

exitOnBootFailure(async () => {
  try {
    await run(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n${USAGE}\n`);
    process.exitCode = 2;
  }
});
