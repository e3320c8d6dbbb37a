import { INestApplicationContext } from '@nestjs/common';
import { AccountAdminService } from '../../accounts/account-admin.service';
import { derivedStateKeepers, rebuildDerivedState } from '../../derived/derived-state';
import { DonationsService } from '../../donations/donations.service';
import { MaintenanceService } from '../../site/maintenance.service';
import { UsageError } from '../arguments';
import { out } from '../cli-app';

/** Site broadcasts, donations and derived state: what an operator changes by hand. */

export async function createMaintenance(
  app: INestApplicationContext,
  options: { title: string; message: string; paths?: string[]; starts?: Date; ends?: Date },
): Promise<void> {
  const event = await app.get(MaintenanceService).create({
    title: options.title,
    message: options.message,
    paths: options.paths,
    startsAt: options.starts,
    endsAt: options.ends,
  });
  out(`created ${event.uid}`);
}

export async function listMaintenance(app: INestApplicationContext): Promise<void> {
  for (const event of await app.get(MaintenanceService).current())
    out([event.uid, event.enabled ? 'enabled' : 'disabled', event.paths?.join(','), event.title].join('\t'));
}

export async function changeMaintenance(app: INestApplicationContext, action: 'enable' | 'disable' | 'delete', uid: string): Promise<void> {
  const maintenance = app.get(MaintenanceService);
  const done = action === 'delete' ? await maintenance.remove(uid) : await maintenance.setEnabled(uid, action === 'enable');
  out(done ? `${action}d ${uid}` : `no maintenance event ${uid}`);
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
