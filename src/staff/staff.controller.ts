import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { LeaderboardAccount } from '../account-records/dto/leaderboard-account.dto';
import { STAFF_ROLES, RequireStaff } from '../common/auth/require-role.decorator';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { STAFF_ACCESS } from './admin.controller';
import { AdminListAuditLogRequestBody, AdminListAuditLogResponseBody } from './dto/audit-log.dto';
import { StaffDirectory } from './staff-directory.service';

@ApiTags('staff')
@Controller('v1')
export class StaffController {
  constructor(private readonly directory: StaffDirectory) {}

  @WireOperation({
    operationId: 'staff.listStaff',
    summary: 'List staff members',
    description:
      `A bare array: the cards of the accounts holding one of the roles ${STAFF_ROLES.map((r) => `\`${r}\``).join(', ')}, ` +
      'by their highest role rating, then account id. Read from the role index on each call (a few rows).',
    auth: 'any',
    bareResponse: { type: 'array', items: { $ref: '#/components/schemas/LeaderboardAccount' }, nullable: true },
    extraModels: [LeaderboardAccount],
    errors: [400, 401, 500],
    noBody: true,
  })
  listStaff(): Promise<LeaderboardAccount[]> {
    return this.directory.staff();
  }

  @WireOperation({
    operationId: 'admin.listAuditLog',
    summary: 'Read the audit log of staff changes (extension; staff only)',
    description:
      `An extension of this service, not in the wire reference. ${STAFF_ACCESS} Every change made through the \`admin.*\` ` +
      'operations or the operator’s CLI (roles, tier overrides, resources, vanities, maintenance events): who (`actorAccountId`, ' +
      'null with `via: cli`), what, when, the state before and after. Newest first; `accountId` keeps the entries about one account.',
    auth: 'session',
    response: AdminListAuditLogResponseBody,
    errors: [400, 401, 403, 422, 500],
  })
  @RequireStaff()
  listAuditLog(@Body() body: AdminListAuditLogRequestBody): Promise<AdminListAuditLogResponseBody> {
    return this.directory.auditLog(body);
  }
}
