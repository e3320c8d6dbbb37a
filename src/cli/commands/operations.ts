import { INestApplicationContext } from '@nestjs/common';
import { AccountAdminService } from '../../accounts/account-admin.service';
import { derivedStateKeepers, rebuildDerivedState } from '../../derived/derived-state';
import { DonationsService } from '../../donations/donations.service';
import { MaintenanceAdmin } from '../../maintenance/maintenance-admin.service';
import { ProblemException } from '../../common/problem/problem.exception';
import { CLI_ACTOR } from '../../staff/audit-log';
import { UsageError } from '../arguments';
import { out } from '../cli-app';

/** Site broadcasts, donations and derived state: what an operator changes by hand. */

export async function createMaintenance(
  app: INestApplicationContext,
  options: { title: string; message: string; paths?: string[]; starts?: Date; ends?: Date },
): Promise<void> {
  const event = await app.get(MaintenanceAdmin).create(CLI_ACTOR, {
    title: options.title,
    message: options.message,
    paths: options.paths,
    startsAt: options.starts,
    endsAt: options.ends,
  });
  out(`created ${event.uid}`);
}

export async function listMaintenance(app: INestApplicationContext): Promise<void> {
  for (const event of await app.get(MaintenanceAdmin).all())
    out([event.uid, event.enabled ? 'enabled' : 'disabled', event.paths?.join(','), event.title].join('\t'));
}

/** The same service as `admin.maintenance.update/delete`: audited as the CLI's, announced to streams and webhooks. */
export async function changeMaintenance(app: INestApplicationContext, action: 'enable' | 'disable' | 'delete', uid: string): Promise<void> {
  const maintenance = app.get(MaintenanceAdmin);
  try {
    if (action === 'delete') await maintenance.remove(CLI_ACTOR, uid);
    else await maintenance.update(CLI_ACTOR, uid, { enabled: action === 'enable' });
  } catch (error) {
    if (error instanceof ProblemException && error.getStatus() === 404) return out(`no maintenance event ${uid}`);
    throw error;
  }
  out(`${action}d ${uid}`);
}

export async function recordDonation(app: INestApplicationContext, options: { cents: number; account?: number; at?: Date }): Promise<void> {
  if (options.account !== undefined) await app.get(AccountAdminService).ensureAccount(options.account);
  await app.get(DonationsService).record(options.cents, options.account ?? null, options.at ?? new Date());
  out(
    `recorded a donation of ${options.cents} cents${options.account === undefined ? ' (anonymous)' : ` from account ${options.account}`}`,
  );
}

/** Rebuilds every keeper of derived state, or those `--only` names, one after another. */
export async function rebuildDerived(app: INestApplicationContext, options: { only?: string[] }): Promise<void> {
  const known = [...derivedStateKeepers(app).keys()];
  const unknown = options.only?.filter((name) => !known.includes(name)) ?? [];
  if (unknown.length) throw new UsageError(`unknown derived state ${unknown.join(', ')}; known: ${known.join(', ')}`);
  for (const name of await rebuildDerivedState(app, options.only)) out(`rebuilt ${name}`);
}
