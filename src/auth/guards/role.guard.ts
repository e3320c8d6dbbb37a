import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { REQUIRED_ROLES } from '../../common/auth/require-role.decorator';
import { Principal } from '../../common/auth/principal';
import { forbidden, unauthorized } from '../../common/problem/problem.exception';

const HOLDS_ANY_SQL = 'SELECT 1 FROM account_roles WHERE account_id = $1 AND role = ANY($2) LIMIT 1';

/**
 * The global guard after CredentialGuard: an operation marked `@RequireRole(...)` (common/auth/require-role.decorator.ts)
 * passes only for a caller whose account holds one of the roles (403 otherwise). Unmarked operations cost nothing.
 */
@Injectable()
export class RoleGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const roles = this.reflector.get<string[] | undefined>(REQUIRED_ROLES, context.getHandler());
    if (!roles?.length) return true;
    const principal = context.switchToHttp().getRequest<Request & { user?: Principal }>().user;
    if (!principal) throw unauthorized();
    const rows: unknown[] = await this.dataSource.query(HOLDS_ANY_SQL, [principal.accountId, roles]);
    if (!rows.length) throw forbidden(`This operation needs one of the roles ${roles.join(', ')}.`);
    return true;
  }
}
