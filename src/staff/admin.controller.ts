import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AccountSearch } from '../account-records/dto/account-search.dto';
import { GRANTABLE_RESOURCES, RESOURCE_MAXIMUM } from '../account-records/resources/account-resources';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { RequireStaff, STAFF_ROLES } from '../common/auth/require-role.decorator';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { AdminAccountService, HISTORY_SHOWN } from './admin-account.service';
import {
  V1AdminGetAccountResponseBody,
  V1AdminRemoveVanityResponseBody,
  V1AdminUpdateResourcesRequestBody,
  V1AdminUpdateRoleOverrideRequestBody,
  V1AdminUpdateRolesRequestBody,
} from './dto/admin.dto';
import { StaffActor } from './audit-log';
import { StaffChanges } from './staff-changes.service';

/** Who may call the admin operations, as each description states it. */
export const STAFF_ACCESS = `Staff only: a session of an account holding one of the roles ${STAFF_ROLES.map((r) => `\`${r}\``).join(', ')} (403 otherwise).`;
const AUDITED = 'Written to the audit log (`admin.listAuditLog`) with the state before and after, in the same transaction.';

const actorOf = (principal: Principal): StaffActor => ({ via: 'api', accountId: principal.accountId });

@ApiTags('admin')
@Controller('v1')
export class AdminController {
  constructor(
    private readonly accounts: AdminAccountService,
    private readonly changes: StaffChanges,
  ) {}

  @WireOperation({
    operationId: 'admin.getAccount',
    summary: 'Get account for admin',
    description:
      `${STAFF_ACCESS} The account with its private parts: e-mail, live sessions, connections, developer apps (never a key), roles, ` +
      `resources (computed, or granted by \`admin.updateResources\`), and the changes of its name, vanity and location as the ` +
      `service recorded them (newest first, the ${HISTORY_SHOWN} newest of each). 404: not tracked.`,
    auth: 'session',
    response: V1AdminGetAccountResponseBody,
    errors: [400, 401, 403, 404, 422, 500],
  })
  @RequireStaff()
  getAccount(@Body() body: AccountSearch): Promise<V1AdminGetAccountResponseBody> {
    return this.accounts.get(body);
  }

  @WireOperation({
    operationId: 'admin.removeVanity',
    summary: 'Remove vanity URL',
    description: `${STAFF_ACCESS} Removes the account’s vanity on this service (its card and vanity history follow). ${AUDITED}`,
    auth: 'session',
    response: V1AdminRemoveVanityResponseBody,
    responseDescription: 'Done: an object with its `$schema` only.',
    errors: [400, 401, 403, 404, 422, 500],
  })
  @RequireStaff()
  async removeVanity(@Body() body: AccountSearch, @CurrentPrincipal() principal: Principal): Promise<V1AdminRemoveVanityResponseBody> {
    await this.changes.removeVanity(actorOf(principal), await this.changes.accountId(body));
    return {};
  }

  @WireOperation({
    operationId: 'admin.updateRoles',
    summary: 'Update account roles',
    description:
      `${STAFF_ACCESS} Sets the account’s whole set of roles: roles left out are revoked, new ones granted (rating 0). ` +
      'Granting or revoking `owner` needs the caller to be an `owner` (403 otherwise). ' +
      `Cards and every process’s copies follow through the change feed; role checks read the roles on each request. ${AUDITED}`,
    auth: 'session',
    responseDescription: 'Updated; no body.',
    errors: [400, 401, 403, 404, 422, 500],
  })
  @RequireStaff()
  async updateRoles(@Body() body: V1AdminUpdateRolesRequestBody, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.changes.setRoles(actorOf(principal), await this.changes.accountId(body), body.roles ?? []);
  }

  @WireOperation({
    operationId: 'admin.updateRoleOverride',
    summary: 'Set or remove a tier role override for an account',
    description:
      `${STAFF_ACCESS} A donor tier given by an operator (support given elsewhere): kept as the \`donator\` role’s \`extras.tier\` ` +
      `(with \`reason\`), which the donor tier reads (the larger pages of the donor-perk listings, \`chosenRole\`’s tier). An empty ` +
      `or absent \`tier\` removes the override. ${AUDITED}`,
    auth: 'session',
    responseDescription: 'Updated; no body.',
    errors: [400, 401, 403, 404, 422, 500],
  })
  @RequireStaff()
  async updateRoleOverride(@Body() body: V1AdminUpdateRoleOverrideRequestBody, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.changes.setTierOverride(actorOf(principal), await this.changes.accountId(body), body.tier ?? '', body.reason);
  }

  @WireOperation({
    operationId: 'admin.updateResources',
    summary: 'Update account resources',
    description:
      `${STAFF_ACCESS} Grants the account resources in place of the computed ones (see \`account.getSession\`): ` +
      GRANTABLE_RESOURCES.map((r) => `\`${r}\` (1–${RESOURCE_MAXIMUM[r]})`).join(', ') +
      '. Each given resource is set; a value of "" removes its grant; resources not given are left as they are. Enforced from ' +
      `the next request (\`account.createDeveloperApp\`, \`badge.listCrafters\`, \`app.listOwners\`). ${AUDITED}`,
    auth: 'session',
    responseDescription: 'Updated; no body.',
    errors: [400, 401, 403, 404, 422, 500],
  })
  @RequireStaff()
  async updateResources(@Body() body: V1AdminUpdateResourcesRequestBody, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.changes.grantResources(actorOf(principal), await this.changes.accountId(body), body.resources ?? []);
  }
}
