import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SEARCH_SOURCES, SearchSource } from '../../search/dto/search-trending.dto';

export const TRACKED_EVENT_TYPES = ['profile_view', 'search'] as const;
export type TrackedEventType = (typeof TRACKED_EVENT_TYPES)[number];

/** The fields of either event; an event without its type's fields counts nothing (`ok: false`). */
export class AnalyticsTrackEventPayload {
  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: 2147483647,
    description: 'profile_view: the account viewed.',
  })
  accountId?: number;

  @ApiPropertyOptional({ enum: SEARCH_SOURCES, description: 'search: where it was typed (as `search.getTrending`’s sources).' })
  source?: SearchSource;

  @ApiPropertyOptional({ minLength: 1, maxLength: 100, description: 'search: the query as typed.' })
  query?: string;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: 2147483647,
    description: 'search: how many results it showed (accepted; the trends count searches).',
  })
  resultCount?: number;
}

export class AnalyticsTrackEventRequestBody {
  @ApiProperty({
    enum: TRACKED_EVENT_TYPES,
    description:
      'Event class. profile_view is normally emitted server-side; this lets the frontend top it up for client-only flows. ' +
      'search captures account/app searches that bypass the backend.',
  })
  type: TrackedEventType;

  @ApiProperty({
    type: AnalyticsTrackEventPayload,
    description: 'Per-type fields. profile_view: {accountId}. search: {source, query, resultCount}.',
  })
  payload: AnalyticsTrackEventPayload;
}

export class AnalyticsTrackEventResponseBody {
  @ApiProperty({
    description: 'Whether the event was counted (false: a profile the service does not track, or an event without its type’s fields).',
  })
  ok: boolean;
}
