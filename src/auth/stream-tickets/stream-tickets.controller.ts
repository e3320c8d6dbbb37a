import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { WireOperation } from '../../common/wire/wire-operation.decorator';
import { CurrentPrincipal } from '../../common/auth/auth.decorator';
import { Principal } from '../../common/auth/principal';
import { AuthCreateStreamTicketRequestBody, AuthCreateStreamTicketResponseBody } from './dto/stream-ticket.dto';
import { STREAM_TICKET_TTL_SECONDS, StreamTicketService } from './stream-ticket.service';

@ApiTags('auth')
@Controller('v1')
export class StreamTicketsController {
  constructor(private readonly tickets: StreamTicketService) {}

  @WireOperation({
    operationId: 'auth.createStreamTicket',
    summary: 'A ticket that opens one event stream from a browser (extension)',
    description: [
      'An extension of this service, not in the wire reference. A browser `EventSource` cannot send `Authorization`,',
      'and credentials in the query (`access_token`) are refused; so mint a ticket with your API key or session and',
      `open the stream with it: \`new EventSource('/v1/account.subscribe?accountId=1&ticket=' + ticket)\`. A ticket is`,
      `valid ${STREAM_TICKET_TTL_SECONDS} s, opens only the stream it names, once, and the stream runs as the key or`,
      'session that minted it (counted against its rate limit). An unknown, expired, spent or mismatched ticket is a',
      '401 on streams that need a credential; on public streams it is ignored, like an invalid bearer token. A stream',
      'opened with a ticket ends, like one opened with the credential itself, when that key or session is revoked.',
    ].join(' '),
    auth: 'any',
    noStore: true,
    response: AuthCreateStreamTicketResponseBody,
    responseDescription: 'The ticket, the stream it opens and when it expires.',
    errors: [400, 401, 422, 500],
  })
  createStreamTicket(
    @Body() body: AuthCreateStreamTicketRequestBody,
    @CurrentPrincipal() principal: Principal,
  ): Promise<AuthCreateStreamTicketResponseBody> {
    return this.tickets.mint(principal, body.stream);
  }
}
