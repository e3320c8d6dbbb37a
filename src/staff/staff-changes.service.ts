import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Role } from '../account-records/account.enums';
import { AccountLookupService, AccountSelector } from '../account-records/account-lookup.service';
import { recordHistory } from '../account-records/history/account-history';
import { RESOURCE_MAXIMUM, isGrantableResource } from '../account-records/resources/account-resources';
import { ChangeFeed } from '../change-feed/change-feed';
import { forbidden, notFound, unprocessable } from '../common/problem/problem.exception';
import { AuditLog, StaffActor } from './audit-log';

/** A role as `account_roles` holds it. */
interface HeldRoleRow {
  role: Role;
  rating: number;
  extras: Record<string, unknown> | null;
}

/** The role that carries a tier override (`extras.tier`, donor-tiers.ts): `donator`, at least `tier_1` by itself. */
const OVERRIDE_ROLE: Role = 'donator';

/** The role only its holders may hand out. */
const OWNER: Role = 'owner';

const ROLES_SQL = 'SELECT role, rating, extras FROM account_roles WHERE account_id = $1 ORDER BY rating DESC, role';

/**
 * # Staff changes
 *
 * What staff change about an account, whether through the `admin.*` operations or the operator's CLI: one service
 * for both (the CLI passes CLI_ACTOR). Each change runs in one transaction that locks the account row, records the
 * change feed entry the in-process copies follow (a `role` entry re-reads the card replica's roles; a `settings`
 * entry with `vanity` its vanity) and appends the audit row (audit-log.ts) with the state before and after; the
 * feed is nudged after the commit. A change that changes nothing still leaves its audit row (staff asked for it).
 */
@Injectable()
export class StaffChanges {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly lookup: AccountLookupService,
    private readonly feed: ChangeFeed,
    private readonly audit: AuditLog,
  ) {}

  /** The tracked account a selector names (404 otherwise). */
  async accountId(selector: AccountSelector): Promise<number> {
    return (await this.lookup.findTracked(selector)).accountId;
  }

  /**
   * Sets the account's whole set of roles: the ones left out are revoked, new ones granted with rating 0. Only an
   * `owner` (or the operator's CLI) may grant or revoke `owner`: other staff cannot raise anyone, themselves included,
   * above their own standing (403).
   */
  async setRoles(actor: StaffActor, accountId: number, roles: readonly Role[]): Promise<void> {
    await this.changeRoles(actor, accountId, 'admin.updateRoles', async (manager, before) => {
      const wanted = new Set(roles);
      if (wanted.has(OWNER) !== before.some((held) => held.role === OWNER) && !(await this.isOwner(manager, actor)))
        throw forbidden('Only an owner may grant or revoke the owner role.');
      const gone = before.filter((held) => !wanted.has(held.role)).map((held) => held.role);
      if (gone.length) await manager.query('DELETE FROM account_roles WHERE account_id = $1 AND role = ANY($2)', [accountId, gone]);
      const added = roles.filter((role) => !before.some((held) => held.role === role));
      if (added.length)
        await manager.query('INSERT INTO account_roles (account_id, role, rating) SELECT $1, unnest($2::text[]), 0', [accountId, added]);
    });
  }

  /** Grants one role (or changes its rating): the CLI's `role grant`. */
  async grantRole(actor: StaffActor, accountId: number, role: Role, rating = 0): Promise<void> {
    await this.changeRoles(actor, accountId, 'role.grant', async (manager) => {
      await manager.query(
        `INSERT INTO account_roles (account_id, role, rating) VALUES ($1, $2, $3)
         ON CONFLICT (account_id, role) DO UPDATE SET rating = EXCLUDED.rating`,
        [accountId, role, rating],
      );
    });
  }

  /** Revokes one role: the CLI's `role revoke`. Resolves false when the account did not hold it. */
  async revokeRole(actor: StaffActor, accountId: number, role: Role): Promise<boolean> {
    let revoked = false;
    await this.changeRoles(actor, accountId, 'role.revoke', async (manager, before) => {
      revoked = before.some((held) => held.role === role);
      if (revoked) await manager.query('DELETE FROM account_roles WHERE account_id = $1 AND role = $2', [accountId, role]);
    });
    return revoked;
  }

  /**
   * Sets or removes the account's tier override: a `donator` role whose `extras.tier` names the tier (donor-tiers.ts
   * reads it). Setting one on an account without `donator` grants the role, marked `extras.override`; removing the
   * override takes such a role back, and only clears `extras.tier` of a `donator` role granted otherwise.
   */
  async setTierOverride(actor: StaffActor, accountId: number, tier: string, reason: string | undefined): Promise<void> {
    await this.changeRoles(actor, accountId, 'admin.updateRoleOverride', async (manager, before) => {
      const held = before.find((row) => row.role === OVERRIDE_ROLE);
      if (tier) {
        const extras = held ? { ...(held.extras ?? {}), tier, reason: reason ?? null } : { tier, reason: reason ?? null, override: true };
        await manager.query(
          `INSERT INTO account_roles (account_id, role, rating, extras) VALUES ($1, $2, 0, $3)
           ON CONFLICT (account_id, role) DO UPDATE SET extras = EXCLUDED.extras`,
          [accountId, OVERRIDE_ROLE, JSON.stringify(extras)],
        );
      } else if (held?.extras?.override === true) {
        await manager.query('DELETE FROM account_roles WHERE account_id = $1 AND role = $2', [accountId, OVERRIDE_ROLE]);
      } else if (held?.extras && 'tier' in held.extras) {
        const { tier: _tier, reason: _reason, ...rest } = held.extras;
        await manager.query('UPDATE account_roles SET extras = $3 WHERE account_id = $1 AND role = $2', [
          accountId,
          OVERRIDE_ROLE,
          Object.keys(rest).length ? JSON.stringify(rest) : null,
        ]);
      }
    });
  }

  /**
   * Grants resources (account-records/resources): each given one is set, a "" value removes its grant. Judged whole
   * first (a resource that cannot be granted or a value past its maximum is a 422, nothing written). No process keeps
   * a copy of a grant (each limit is read where it is enforced), so no feed entry is needed.
   */
  async grantResources(actor: StaffActor, accountId: number, resources: readonly { resource: string; value: string }[]): Promise<void> {
    resources.forEach(({ resource, value }, i) => {
      if (!isGrantableResource(resource))
        throw unprocessable(`The resource ${resource} cannot be granted.`, [
          { location: `body.resources[${i}].resource`, message: 'not grantable', value: resource },
        ]);
      if (value !== '' && !(/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= RESOURCE_MAXIMUM[resource]))
        throw unprocessable(
          `The value of ${resource} must be a whole number from 1 to ${RESOURCE_MAXIMUM[resource]}, or "" to remove it.`,
          [{ location: `body.resources[${i}].value`, message: 'out of range', value }],
        );
    });
    await this.dataSource.transaction(async (manager) => {
      await this.lock(manager, accountId);
      const read = async () =>
        Object.fromEntries(
          (
            (await manager.query('SELECT resource, value FROM account_resources WHERE account_id = $1 ORDER BY resource', [accountId])) as {
              resource: string;
              value: string;
            }[]
          ).map((row) => [row.resource, row.value]),
        );
      const before = await read();
      for (const { resource, value } of resources) {
        if (value === '')
          await manager.query('DELETE FROM account_resources WHERE account_id = $1 AND resource = $2', [accountId, resource]);
        else
          await manager.query(
            `INSERT INTO account_resources (account_id, resource, value) VALUES ($1, $2, $3)
             ON CONFLICT (account_id, resource) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
            [accountId, resource, String(Number(value))],
          );
      }
      await this.audit.record(manager, actor, { action: 'admin.updateResources', targetAccountId: accountId, before, after: await read() });
    });
  }

  /** Removes the account's vanity on this service (its history and the card's vanity follow). */
  async removeVanity(actor: StaffActor, accountId: number): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const { site_vanity: vanity } = await this.lock(manager, accountId);
      if (vanity !== null) {
        await manager.query('UPDATE accounts SET site_vanity = NULL WHERE account_id = $1', [accountId]);
        await recordHistory(manager, accountId, { siteVanity: vanity }, { siteVanity: null });
        await this.feed.record(manager, { kind: 'settings', accountIds: [accountId], payload: { vanity: true } });
      }
      await this.audit.record(manager, actor, {
        action: 'admin.removeVanity',
        targetAccountId: accountId,
        before: { vanity },
        after: { vanity: null },
      });
    });
    await this.feed.nudge([accountId]);
  }

  private async changeRoles(
    actor: StaffActor,
    accountId: number,
    action: string,
    change: (manager: EntityManager, before: HeldRoleRow[]) => Promise<void>,
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await this.lock(manager, accountId);
      const before: HeldRoleRow[] = await manager.query(ROLES_SQL, [accountId]);
      await change(manager, before);
      const after: HeldRoleRow[] = await manager.query(ROLES_SQL, [accountId]);
      await this.feed.record(manager, { kind: 'role', accountIds: [accountId], payload: { action } });
      await this.audit.record(manager, actor, { action, targetAccountId: accountId, before: { roles: before }, after: { roles: after } });
    });
    await this.feed.nudge([accountId]);
  }

  private async isOwner(manager: EntityManager, actor: StaffActor): Promise<boolean> {
    if (actor.via === 'cli') return true;
    const rows: unknown[] = await manager.query('SELECT 1 FROM account_roles WHERE account_id = $1 AND role = $2', [
      actor.accountId,
      OWNER,
    ]);
    return rows.length > 0;
  }

  /** Locks the account row (the order every writer of an account takes): 404 when it is not stored. */
  private async lock(manager: EntityManager, accountId: number): Promise<{ site_vanity: string | null }> {
    const [row]: { site_vanity: string | null }[] = await manager.query(
      'SELECT site_vanity FROM accounts WHERE account_id = $1 FOR UPDATE',
      [accountId],
    );
    if (!row) throw notFound(`Account ${accountId} is not stored.`);
    return row;
  }
}
