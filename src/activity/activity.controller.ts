import { Body, Controller, MessageEvent, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiTags } from '@nestjs/swagger';
import { Observable } from 'rxjs';
import { StreamHeartbeat } from '../common/wire/stream-events.dto';
import { WireOperation, WireStream } from '../common/wire/wire-operation.decorator';
import { LastEventId } from '../common/replay/last-event-id.decorator';
import { SharedAnswers } from '../common/shared-answers/shared-answers';
import { ActivityFeedService } from './activity-feed.service';
import { ActivityStreamService } from './activity-stream.service';
import {
  FEED_DEFAULT_LIMIT,
  V1ActivityListAccountFeedRequestBody,
  V1ActivityListAccountFeedResponseBody,
  V1ActivityListGlobalFeedRequestBody,
  V1ActivityListGlobalFeedResponseBody,
  V1ActivityEvent,
} from './dto/activity.dto';

const FEED_NOTE = `Newest first, ${FEED_DEFAULT_LIMIT} per page by default (at most 100), with an opaque cursor. Events are what account updates observe after an account's first update: \`badge_crafted\` (a new badge or level), \`scarcity_milestone\` (among the first 10 tracked crafters) and \`level_milestone\` (every tenth level). No credential needed.`;

@ApiTags('activity')
@Controller('v1')
export class ActivityController {
  constructor(
    private readonly feed: ActivityFeedService,
    private readonly streams: ActivityStreamService,
    private readonly shared: SharedAnswers,
  ) {}

  @WireOperation({
    operationId: 'activity.listAccountFeed',
    summary: 'Activity feed of one account',
    description: FEED_NOTE,
    auth: 'optional',
    response: V1ActivityListAccountFeedResponseBody,
    errors: [400, 422, 500],
  })
  listAccountFeed(@Body() body: V1ActivityListAccountFeedRequestBody): Promise<V1ActivityListAccountFeedResponseBody> {
    return this.feed.list(body);
  }

  @WireOperation({
    operationId: 'activity.listGlobalFeed',
    summary: 'Global activity feed',
    description: FEED_NOTE,
    auth: 'optional',
    response: V1ActivityListGlobalFeedResponseBody,
    errors: [400, 422, 500],
  })
  async listGlobalFeed(@Body() body: V1ActivityListGlobalFeedRequestBody, @Res() res: Response): Promise<void> {
    const operation = { operationId: 'activity.listGlobalFeed', schema: V1ActivityListGlobalFeedResponseBody.name };
    await this.shared.send(res, operation, body, () => this.feed.list(body));
  }

  @WireStream({
    operationId: 'activity.streamGlobalFeed',
    summary: 'Live global activity feed',
    description: 'The events of `activity.listGlobalFeed` as the updates that find them commit.',
    auth: 'optional',
    errors: [500],
    resync: 'Its `refetch` names `activity.listGlobalFeed` (newest first: page until an event already seen).',
    events: [
      {
        name: 'activity-heartbeat',
        data: StreamHeartbeat,
        when: 'at once, then every `STREAM_HEARTBEAT_MS` (15 s).',
        example: { heartbeat: 1 },
      },
      { name: 'activity-emitted', data: V1ActivityEvent, when: 'an update committed a new activity event.' },
    ],
  })
  streamGlobalFeed(@LastEventId() lastEventId: string | undefined): Promise<Observable<MessageEvent>> {
    return this.streams.open(lastEventId);
  }
}
