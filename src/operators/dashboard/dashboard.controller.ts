import { Controller } from '@nestjs/common';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../common/auth/auth.decorator';
import { Principal } from '../../common/auth/principal';
import { WireOperation } from '../../common/wire/wire-operation.decorator';
import { DASHBOARD_COOKIE_TTL_SECONDS, DASHBOARD_PATH, DASHBOARD_TICKET_TTL_SECONDS, DashboardAccess } from './dashboard-access.service';

export class OperatorCreateDashboardTicketResponseBody {
  @ApiProperty({ description: 'Open this link in a browser: it works once, within `expiresAt`.' }) url: string;
  @ApiProperty({ type: String, format: 'date-time' }) expiresAt: Date;
}

@ApiTags('operator')
@Controller('v1')
export class DashboardController {
  constructor(private readonly access: DashboardAccess) {}

  @WireOperation({
    operationId: 'operator.createDashboardTicket',
    summary: 'A link that opens the queue dashboard in a browser (extension; staff sessions only)',
    description: [
      'An extension of this service, not in the wire reference. The queue dashboard (Bull Board, under',
      `\`${DASHBOARD_PATH}\`) is for staff (roles staff, owner, developer; others 403) signed in with a session (API keys 401). The`,
      `link holds a one-use ticket valid ${DASHBOARD_TICKET_TTL_SECONDS} s; opening it sets an HttpOnly cookie for the`,
      `dashboard's path, valid ${DASHBOARD_COOKIE_TTL_SECONDS / 60} minutes while the session lasts and the role is held.`,
    ].join(' '),
    auth: 'session',
    response: OperatorCreateDashboardTicketResponseBody,
    errors: [401, 403, 422, 500],
    noBody: true,
  })
  createDashboardTicket(@CurrentPrincipal() principal: Principal): Promise<OperatorCreateDashboardTicketResponseBody> {
    if (principal.kind !== 'session') throw new Error('unreachable: session-only route');
    return this.access.mintTicket({ accountId: principal.accountId, sessionId: principal.sessionId });
  }
}
