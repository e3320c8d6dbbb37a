import { INestApplicationContext } from '@nestjs/common';
import { Command, CommanderError, Option } from 'commander';
import { ROLES, Role } from '../account-records/account.enums';
import { DEVELOPER_APP_ENVIRONMENTS, DeveloperAppEnvironment } from '../auth/entities/api-key.entity';
import type { AppConfig } from '../config/app-config';
import { accountId, commaList, isoDate, MAX_ACCOUNT_ID, positiveInteger, UsageError } from './arguments';

/**
 * The operator CLI's commands, on commander: `--help` on every command, argument errors as one `error:` line
 * and exit code 2. The command modules (and Nest, TypeORM, ioredis with them) load only when a command runs,
 * so `--help` and a mistyped argument answer at once.
 */

type Work = (app: INestApplicationContext, config: AppConfig) => Promise<void>;

/** Exit code of every usage error (commander's own and UsageError); 1 stays for "ran and failed". */
const USAGE_EXIT_CODE = 2;

/** Reports a usage error the way commander reports its own: `error: …`, the help hint, exit code 2. */
function usageError(command: Command, message: string): never {
  return command.error(`error: ${message}`, { exitCode: USAGE_EXIT_CODE, code: 'cli.usage' });
}

/**
 * Runs a command inside the application context. Options are checked first (commander's `requiredOption` words
 * its error differently from the CLI's documented `--account is required`, so required options are checked here).
 */
async function run(command: Command, required: string[], work: Work): Promise<void> {
  const options = command.opts();
  for (const name of required) {
    if (options[name] === undefined) usageError(command, `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} is required`);
  }
  const { withCliApp } = await import('./cli-app');
  try {
    await withCliApp(work);
  } catch (error) {
    if (error instanceof UsageError) usageError(command, error.message);
    throw error;
  }
}

const accountOption = (description: string) => new Option('--account <accountId>', description).argParser(accountId);

function credentialCommands(program: Command): void {
  const apiKey = program.command('api-key').description('mint, list and revoke API keys (the secret is shown once)');
  apiKey
    .command('create')
    .description('mint an API key; its secret is the last line of stdout')
    .addOption(accountOption('the account that owns the key, created when new (required)'))
    .option('--name <name>', 'the developer app’s name', 'CLI key')
    .option('--description <text>', 'the developer app’s description')
    .addOption(
      new Option('--environment <environment>', 'the developer app’s environment')
        .choices(DEVELOPER_APP_ENVIRONMENTS)
        .default('production'),
    )
    .option('--frontend', 'a frontend key: the web app’s own, accepted by analytics.trackEvent', false)
    .action(
      (
        options: { account: number; name: string; description?: string; environment: DeveloperAppEnvironment; frontend: boolean },
        command: Command,
      ) => run(command, ['account'], async (app) => (await import('./commands/credentials')).createApiKey(app, options)),
    );
  apiKey
    .command('list')
    .description('list API keys (id, account, environment, masked secret, state, name)')
    .addOption(accountOption('only this account’s keys'))
    .action((options: { account?: number }, command: Command) =>
      run(command, [], async (app) => (await import('./commands/credentials')).listApiKeys(app, options)),
    );
  apiKey
    .command('revoke')
    .description('revoke an API key')
    .argument('<keyId>', 'the key id (key_…), as listed')
    .action((keyId: string, _options: unknown, command: Command) =>
      run(command, [], async (app) => (await import('./commands/credentials')).revokeApiKey(app, keyId)),
    );

  const session = program.command('session').description('mint, list and revoke user sessions');
  session
    .command('create')
    .description('mint a user session; the session token is the last line of stdout, the refresh token the line before')
    .addOption(accountOption('the signed-in account, created when new (required)'))
    .option('--email <email>', 'the account’s e-mail address, when the account is created')
    .option('--ip <address>', 'the client address recorded with the session', '127.0.0.1')
    .option('--user-agent <text>', 'the user agent recorded with the session', 'cli')
    .action((options: { account: number; email?: string; ip: string; userAgent: string }, command: Command) =>
      run(command, ['account'], async (app) => (await import('./commands/credentials')).createSession(app, options)),
    );
  session
    .command('list')
    .description('list sessions (id, account, expiry, state, address)')
    .addOption(accountOption('only this account’s active sessions'))
    .action((options: { account?: number }, command: Command) =>
      run(command, [], async (app) => (await import('./commands/credentials')).listSessions(app, options)),
    );
  session
    .command('revoke')
    .description('revoke a session')
    .argument('<sessionId>', 'the session id, as listed')
    .action((sessionId: string, _options: unknown, command: Command) =>
      run(command, [], async (app) => (await import('./commands/credentials')).revokeSession(app, sessionId)),
    );

  const role = program.command('role').description('grant and revoke account roles (staff may force updates; badge_scout may tag badges)');
  for (const action of ['grant', 'revoke'] as const) {
    role
      .command(action)
      .description(`${action} a role ${action === 'grant' ? 'to' : 'from'} an account`)
      .addOption(accountOption('the account (required)'))
      .addOption(new Option('--role <role>', 'the role (required)').choices(ROLES))
      .action((options: { account: number; role: Role }, command: Command) =>
        run(command, ['account', 'role'], async (app) => (await import('./commands/credentials')).changeRole(app, action, options)),
      );
  }
}

function operatorCommands(program: Command): void {
  const maintenance = program.command('maintenance').description('site broadcasts, streamed by site.subscribe');
  maintenance
    .command('create')
    .description('create a maintenance broadcast')
    .option('--title <title>', 'its title (required)')
    .option('--message <message>', 'its message (required)')
    .option('--paths <paths>', 'comma-separated site paths it concerns, e.g. "*,/leaderboards"', commaList)
    .option('--starts <iso>', 'when it starts', isoDate)
    .option('--ends <iso>', 'when it ends', isoDate)
    .action((options: { title: string; message: string; paths?: string[]; starts?: Date; ends?: Date }, command: Command) =>
      run(command, ['title', 'message'], async (app) => (await import('./commands/operations')).createMaintenance(app, options)),
    );
  maintenance
    .command('list')
    .description('list current broadcasts (uid, state, paths, title)')
    .action((_options: unknown, command: Command) =>
      run(command, [], async (app) => (await import('./commands/operations')).listMaintenance(app)),
    );
  for (const action of ['enable', 'disable', 'delete'] as const) {
    maintenance
      .command(action)
      .description(`${action} a broadcast`)
      .argument('<uid>', 'the broadcast’s uid, as listed')
      .action((uid: string, _options: unknown, command: Command) =>
        run(command, [], async (app) => (await import('./commands/operations')).changeMaintenance(app, action, uid)),
      );
  }

  program
    .command('donation')
    .description('donations, counted by donate.getGoal')
    .command('record')
    .description('record a donation')
    .option('--cents <cents>', 'the amount in cents (required)', positiveInteger(Number.MAX_SAFE_INTEGER))
    .addOption(accountOption('the donating account, created when new (default: anonymous)'))
    .option('--at <iso>', 'when it was made (default: now)', isoDate)
    .action((options: { cents: number; account?: number; at?: Date }, command: Command) =>
      run(command, ['cents'], async (app) => (await import('./commands/operations')).recordDonation(app, options)),
    );

  program
    .command('derived')
    .description('derived state: totals, holder statistics, ranks and the other maintained aggregates')
    .command('rebuild')
    .description('recompute derived state from PostgreSQL (after a bulk load, a restore, or a migration that adds a keeper)')
    .option('--only <names>', 'comma-separated keepers to rebuild (default: all)', commaList)
    .action((options: { only?: string[] }, command: Command) =>
      run(command, [], async (app) => (await import('./commands/operations')).rebuildDerived(app, options)),
    );
}

function accountCommands(program: Command): void {
  program
    .command('accounts')
    .description('accounts tracked by the service')
    .command('refresh')
    .description('queue updates of a range of accounts and show their progress until the worker has finished them')
    .option('--from <accountId>', 'the first account id', accountId, 1)
    .option('--count <n>', 'how many consecutive accounts (required)', positiveInteger(10_000))
    .option('--force', 'also refresh accounts updated within the cooldown (UPDATE_COOLDOWN_SECONDS)')
    .option('--timeout <seconds>', 'stop waiting after this long (exit code 1)', positiveInteger(86_400), 600)
    .addHelpText(
      'after',
      [
        '',
        'Without a platform key the service reads the built-in simulator, whose accounts are 1..SIMULATOR_ACCOUNTS',
        '(2000 by default); an id outside it is reported as not found. The worker does the updates: run `npm start`',
        '(or `npm run start:worker`) first. Progress goes to stderr (a bar on a terminal, plain lines otherwise), the',
        'summary to stdout; the exit code is 1 when an update failed, an account was not found or the wait timed out.',
      ].join('\n'),
    )
    .action((options: { from: number; count: number; force?: boolean; timeout: number }, command: Command) => {
      if (options.count !== undefined && options.from + options.count - 1 > MAX_ACCOUNT_ID)
        usageError(command, `the range ends after the last account id (${MAX_ACCOUNT_ID})`);
      return run(command, ['count'], async (app, config) =>
        (await import('./commands/refresh-accounts')).refreshAccounts(app, config, options),
      );
    });
}

export function buildProgram(): Command {
  const program = new Command('npm run cli --')
    .description('Operator commands of the statistics service, run over the same services as the API and the worker.')
    // Set before any subcommand is added: subcommands inherit both.
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .addHelpText(
      'after',
      [
        '',
        'Every command takes --help. The CLI reads the service’s environment (DATABASE_URL, REDIS_URL, REDIS_PREFIX, …)',
        'and creates and migrates the database when needed. From the Docker image: `docker compose run --rm api',
        'node dist/src/cli.js <command>`. A new secret is printed as the last line of stdout, once; only its hash is stored.',
      ].join('\n'),
    );
  credentialCommands(program);
  operatorCommands(program);
  accountCommands(program);
  return program;
}

/** Parses `argv` (process.argv) and runs the command. Help exits 0, a usage error 2; other failures throw. */
export async function runCli(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    // commander has already written the help or the error line.
    process.exitCode = error.exitCode === 0 ? 0 : USAGE_EXIT_CODE;
  }
}
