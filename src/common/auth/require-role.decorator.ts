import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

/**
 * # Role checks
 *
 * `@RequireRole(...roles)` on an operation: after the credential guard has identified the caller (its `auth` policy
 * still decides which credentials count), the role guard (src/auth/guards/role.guard.ts, global) admits it only
 * when its account holds at least one of `roles` in `account_roles`; otherwise 403. No credential or a bad one stays
 * a 401 from the credential guard. The check is one primary-key read per request, never cached, so a role revoked
 * through `admin.updateRoles` or the CLI is refused from the next request on. The document names the roles as
 * `x-roles`.
 */
export const REQUIRED_ROLES = 'auth:required-roles';

/** The roles of the service's staff: they may call the `admin.*` operations and read the audit log. */
export const STAFF_ROLES: readonly string[] = ['staff', 'owner', 'developer'];

export function RequireRole(...roles: string[]) {
  return applyDecorators(SetMetadata(REQUIRED_ROLES, roles), ApiExtension('x-roles', roles));
}

/** Shorthand for the staff operations: one of STAFF_ROLES. */
export const RequireStaff = () => RequireRole(...STAFF_ROLES);
