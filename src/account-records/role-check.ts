import { forbidden } from '../common/problem/problem.exception';
import { Role } from './account.enums';

/** Anything that runs SQL: a DataSource or a transaction's EntityManager. */
interface Queryable {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/** Roles that operate the service (force updates, staff queues, the queue dashboard): donor-tiers' list. */
export { STAFF_ROLES } from './donor-tiers';

/** Roles that edit badge tags and review them. */
export const TAG_EDITOR_ROLES: readonly Role[] = ['badge_scout', 'staff', 'owner'];

/** Whether the account holds any of these roles (one probe of `account_roles`' primary key per role). */
export async function hasAnyRole(db: Queryable, accountId: number, roles: readonly string[]): Promise<boolean> {
  const rows = (await db.query('SELECT 1 FROM account_roles WHERE account_id = $1 AND role = ANY($2) LIMIT 1', [
    accountId,
    roles,
  ])) as unknown[];
  return rows.length > 0;
}

/**
 * Refuses (403) a caller without any of these roles. The one role check of the staff operations of this branch;
 * a shared role guard replaces it where one lands.
 */
export async function requireAnyRole(db: Queryable, accountId: number, roles: readonly string[], what: string): Promise<void> {
  if (!(await hasAnyRole(db, accountId, roles))) throw forbidden(`${what} needs one of the roles ${roles.join(', ')}.`);
}
