import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { RequireStaff } from '../common/auth/require-role.decorator';
import { unprocessable } from '../common/problem/problem.exception';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { MaintenanceEvent } from '../site/dto/maintenance.dto';
import { STAFF_ACCESS } from '../staff/admin.controller';
import { StaffActor } from '../staff/audit-log';
import {
  CreateRequestBody,
  DeleteRequestBody,
  DeleteResponseBody,
  ListAllResponseBody,
  ListResponseBody,
  UpdateRequestBody,
} from './dto/maintenance-admin.dto';
import { MaintenanceAdmin } from './maintenance-admin.service';

const ANNOUNCED = 'Open `site.subscribe` streams get the new set and `maintenance.changed` webhooks fire; written to the audit log.';
const actorOf = (principal: Principal): StaffActor => ({ via: 'api', accountId: principal.accountId });
/** A date-time of the body (its pattern already checked): one that names no instant (month 13) is a 422. */
const dateOf = (value: string | undefined, field: string) => {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() > 9999)
    throw unprocessable(`\`${field}\` is not a valid date-time.`, [{ location: `body.${field}`, message: 'invalid date-time', value }]);
  return date;
};

@ApiTags('maintenance')
@Controller('v1')
export class MaintenanceController {
  constructor(private readonly maintenance: MaintenanceAdmin) {}

  @WireOperation({
    operationId: 'maintenance.list',
    summary: 'List currently active maintenance events',
    description: 'Public. The events in force now: enabled, started (no `startsAt`, or one past) and not ended; newest first.',
    auth: 'public',
    response: ListResponseBody,
    errors: [500],
    noBody: true,
  })
  async list(): Promise<ListResponseBody> {
    return { items: await this.maintenance.active() };
  }

  @WireOperation({
    operationId: 'admin.maintenance.list',
    summary: 'Admin: list every maintenance event including disabled and scheduled',
    description: `${STAFF_ACCESS} Every event, newest first.`,
    auth: 'session',
    response: ListAllResponseBody,
    errors: [401, 403, 500],
    noBody: true,
  })
  @RequireStaff()
  async listAll(): Promise<ListAllResponseBody> {
    return { items: await this.maintenance.all() };
  }

  @WireOperation({
    operationId: 'admin.maintenance.create',
    summary: 'Create a maintenance event',
    description: `${STAFF_ACCESS} \`createdBy\` is the caller's account. \`endsAt\` before \`startsAt\` is a 422. ${ANNOUNCED}`,
    auth: 'session',
    response: MaintenanceEvent,
    errors: [400, 401, 403, 422, 500],
  })
  @RequireStaff()
  create(@Body() body: CreateRequestBody, @CurrentPrincipal() principal: Principal): Promise<MaintenanceEvent> {
    return this.maintenance.create(actorOf(principal), {
      title: body.title,
      message: body.message,
      enabled: body.enabled,
      paths: body.paths ?? undefined,
      startsAt: dateOf(body.startsAt, 'startsAt'),
      endsAt: dateOf(body.endsAt, 'endsAt'),
    });
  }

  @WireOperation({
    operationId: 'admin.maintenance.update',
    summary: 'Update a maintenance event (any subset of fields)',
    description: `${STAFF_ACCESS} Fields left out keep their value; \`clearStartsAt\`/\`clearEndsAt\` remove a schedule. 404: no such event. ${ANNOUNCED}`,
    auth: 'session',
    response: MaintenanceEvent,
    errors: [400, 401, 403, 404, 422, 500],
  })
  @RequireStaff()
  update(@Body() body: UpdateRequestBody, @CurrentPrincipal() principal: Principal): Promise<MaintenanceEvent> {
    return this.maintenance.update(actorOf(principal), body.uid, {
      title: body.title,
      message: body.message,
      enabled: body.enabled,
      paths: body.paths,
      startsAt: dateOf(body.startsAt, 'startsAt'),
      endsAt: dateOf(body.endsAt, 'endsAt'),
      clearStartsAt: body.clearStartsAt,
      clearEndsAt: body.clearEndsAt,
    });
  }

  @WireOperation({
    operationId: 'admin.maintenance.delete',
    summary: 'Hard-delete a maintenance event',
    description: `${STAFF_ACCESS} 404: no such event. ${ANNOUNCED}`,
    auth: 'session',
    response: DeleteResponseBody,
    errors: [401, 403, 404, 422, 500],
  })
  @RequireStaff()
  async delete(@Body() body: DeleteRequestBody, @CurrentPrincipal() principal: Principal): Promise<DeleteResponseBody> {
    await this.maintenance.remove(actorOf(principal), body.uid);
    return { ok: true };
  }
}
