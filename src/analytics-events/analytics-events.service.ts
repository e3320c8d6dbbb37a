import { Injectable } from '@nestjs/common';
import { AccountLookupService } from '../account-records/account-lookup.service';
import { AccountViewsService } from '../accounts/views/account-views.service';
import { ApiKeyService } from '../auth/api-key.service';
import { Principal } from '../common/auth/principal';
import { forbidden } from '../common/problem/problem.exception';
import { SearchTrendsService } from '../search/search-trends.service';
import { AnalyticsTrackEventRequestBody, AnalyticsTrackEventResponseBody } from './dto/track-event.dto';

/**
 * `analytics.trackEvent`: events the web app sees and the service does not, fed into the counters that already
 * exist (no second store): a `profile_view` is a view of AccountViewsService (the same viewer rule as
 * `account.getInfo`: the credential's account with the client address, once per profile per hour and day), a
 * `search` a search of SearchTrendsService (`search.getTrending`). Callers: signed-in users (a session) and frontend
 * API keys (`api_keys.frontend`, set by the operator: `api-key create --frontend`); any other key gets 403.
 */
@Injectable()
export class AnalyticsEventsService {
  constructor(
    private readonly keys: ApiKeyService,
    private readonly lookup: AccountLookupService,
    private readonly views: AccountViewsService,
    private readonly searches: SearchTrendsService,
  ) {}

  async track(principal: Principal, visitor: string, body: AnalyticsTrackEventRequestBody): Promise<AnalyticsTrackEventResponseBody> {
    if (principal.kind === 'api-key' && !(await this.keys.isFrontend(principal.keyId)))
      throw forbidden('Only a frontend API key or a signed-in user may track events; this key is not a frontend key.');
    const { payload } = body;
    // The document is the one statement of what a request must hold (it cannot say "accountId when profile_view"):
    // an event without its type's fields is valid and counts nothing (`ok: false`), as one about an untracked profile.
    if (body.type === 'profile_view') {
      if (payload.accountId === undefined) return { ok: false };
      // A profile the service does not track gets no counters (nor a place in trending).
      const tracked = await this.lookup.findTracked({ id: { accountId: payload.accountId } }).then(
        () => true,
        () => false,
      );
      if (tracked) await this.views.record(payload.accountId, visitor);
      return { ok: tracked };
    }
    if (payload.source === undefined || payload.query === undefined || !payload.query.trim()) return { ok: false };
    await this.searches.record(payload.source, payload.query, visitor);
    return { ok: true };
  }
}
