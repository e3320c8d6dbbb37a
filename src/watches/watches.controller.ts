import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import {
  V1AccountCreateWatchRequest,
  V1AccountCreateWatchResponseBody,
  V1AccountListWatchesResponseBody,
  V1AccountWatchRequest,
  WATCHES_PER_ACCOUNT,
} from './dto/watches.dto';
import { WatchesService } from './watches.service';

const EXTENSION = 'An extension of this service, not in the wire reference.';
const SESSION_ONLY =
  'User session only: a watch is its user’s, like their preferences; an API key (a developer app) receives the watches’ ' +
  'events (`watch.fired` webhooks, the owner’s `account.subscribe` stream) but does not manage them.';
const DELIVERY =
  'A watch fires once, when its condition is first met: `firedAt` and `fired` are set, a `watch.fired` event goes to every ' +
  'enabled webhook of the owner’s developer apps that asked for it, and a `watch-fired` event to the owner’s ' +
  '`account.subscribe` streams (only to streams opened with the owner’s credentials).';

@ApiTags('account')
@Controller('v1')
export class WatchesController {
  constructor(private readonly watches: WatchesService) {}

  @WireOperation({
    operationId: 'account.createWatch',
    summary: 'Watch a set price, a rank or a friend’s crafts (extension; user session only)',
    description:
      `${EXTENSION} ${SESSION_ONLY} ${DELIVERY} Each kind takes its own fields (the others are a 422). At most ` +
      `${WATCHES_PER_ACCOUNT} watches per account, fired ones included (one more is a 422, and nothing is stored). ` +
      '404: an unknown app (`setPrice`) or an account this service does not track (`rank`); 422: a `friendBadge` account ' +
      'that is not in the caller’s friend list.',
    auth: 'session',
    response: V1AccountCreateWatchResponseBody,
    errors: [400, 401, 404, 422, 500],
  })
  async create(
    @Body() body: V1AccountCreateWatchRequest,
    @CurrentPrincipal() principal: Principal,
  ): Promise<V1AccountCreateWatchResponseBody> {
    return { watch: await this.watches.create(principal.accountId, body) };
  }

  @WireOperation({
    operationId: 'account.listWatches',
    summary: 'List the caller’s watches (extension; user session only)',
    description: `${EXTENSION} ${SESSION_ONLY} Newest first, fired ones with their \`firedAt\` and what was seen.`,
    auth: 'session',
    response: V1AccountListWatchesResponseBody,
    errors: [400, 401, 500],
    noBody: true,
  })
  async list(@CurrentPrincipal() principal: Principal): Promise<V1AccountListWatchesResponseBody> {
    return { watches: await this.watches.list(principal.accountId) };
  }

  @WireOperation({
    operationId: 'account.deleteWatch',
    summary: 'Delete one of the caller’s watches (extension; user session only)',
    description: `${EXTENSION} ${SESSION_ONLY} 404: no such watch of the caller’s.`,
    auth: 'session',
    responseDescription: 'Deleted; no body.',
    errors: [400, 401, 404, 422, 500],
  })
  async delete(@Body() body: V1AccountWatchRequest, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.watches.delete(principal.accountId, body.watchId);
  }
}
