import { Body, Controller } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { ProfileVisitor } from '../accounts/views/profile-visitor.decorator';
import { AnalyticsEventsService } from './analytics-events.service';
import { AnalyticsTrackEventRequestBody, AnalyticsTrackEventResponseBody } from './dto/track-event.dto';

@ApiTags('analytics')
@Controller('v1')
export class AnalyticsEventsController {
  constructor(private readonly events: AnalyticsEventsService) {}

  @WireOperation({
    operationId: 'analytics.trackEvent',
    summary: 'Track a frontend-only analytics event (profile view, search)',
    description:
      'Frontend API key + logged-in users only: a user session, or an API key the operator marked as the web app’s ' +
      '(`npm run cli -- api-key create --frontend`); any other key gets 403. `profile_view` `{accountId}` counts a view ' +
      'as `account.getInfo` does (`account.getViewStats`, `account.getTrending`; a viewer is the credential’s account ' +
      'with the client address and counts once per profile per hour and day). `search` `{source, query, resultCount}` counts a search (`search.getTrending`). `ok` is false when nothing was counted: a profile the service does ' +
      'not track, or an event without its type’s fields.',
    auth: 'any',
    response: AnalyticsTrackEventResponseBody,
    errors: [400, 401, 403, 422, 500],
  })
  @ApiHeader({ name: 'X-Visitor-Id', required: false, description: 'Accepted, not trusted: it does not tell viewers apart.' })
  @ApiHeader({
    name: 'X-Forwarded-For',
    required: false,
    description: 'The client address, read only through the proxies the service trusts (`TRUST_PROXY_HOPS`; 0: ignored).',
  })
  @ApiHeader({ name: 'User-Agent', required: false, description: 'Accepted; it does not tell viewers apart.' })
  trackEvent(
    @Body() body: AnalyticsTrackEventRequestBody,
    @CurrentPrincipal() principal: Principal,
    @ProfileVisitor() visitor: string,
  ): Promise<AnalyticsTrackEventResponseBody> {
    return this.events.track(principal, visitor, body);
  }
}
