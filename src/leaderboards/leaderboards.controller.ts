import { FALLERS_DEPTH } from './changes/change-snapshot-computer';
import { Body, Controller, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { SharedAnswers } from '../common/shared-answers/shared-answers';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { MAX_WINDOW } from '../ranks/account-boards';
import { AccountLeaderboardService } from './account-leaderboard.service';
import {
  V1LeaderboardGetAccountLeaderboardRequestBody,
  V1LeaderboardGetAccountLeaderboardResponseBody,
} from './dto/account-leaderboard.dto';
import { V1LeaderboardListBadgesResponseBody } from './dto/leaderboard-badges.dto';
import { V1LeaderboardPreviewAccountRankRequestBody, V1LeaderboardPreviewAccountRankResponseBody } from './dto/preview-rank.dto';
import { LeaderboardBadgesService } from './leaderboard-badges.service';
import { PreviewRankService } from './preview-rank.service';
import { ChangesService } from './changes.service';
import { V1LeaderboardGetLowestRanksRequestBody } from './dto/lowest-ranks.dto';
import { LEVEL_STEP, LowestRanksService } from './lowest-ranks.service';
import { LeaderboardGetChangesRequestBody, LeaderboardGetChangesResponseBody } from './dto/changes.dto';
import { APP_THRESHOLDS, BucketLeadersService } from './bucket-leaders.service';
import { BucketLeader, V1LeaderboardGetBucketLeadersRequestBody } from './dto/bucket-leaders.dto';

@ApiTags('leaderboard')
@Controller('v1')
export class LeaderboardsController {
  constructor(
    private readonly badgeBoards: LeaderboardBadgesService,
    private readonly accountBoards: AccountLeaderboardService,
    private readonly previews: PreviewRankService,
    private readonly buckets: BucketLeadersService,
    private readonly changes: ChangesService,
    private readonly lowest: LowestRanksService,
    private readonly shared: SharedAnswers,
  ) {}

  @WireOperation({
    operationId: 'leaderboard.getAccountLeaderboard',
    summary: 'Account leaderboard',
    description: `Ranks are 1-based; \`start\` and \`end\` are inclusive (default 1–10) and a window holds at most ${MAX_WINDOW} ranks (403 beyond). \`goToLeaderboardRank\` centres a window of the same width on that rank. Every refreshed account is ranked; accounts that chose to be hidden keep their rank but come back as null rows, their ranks listed in \`hiddenRanks\`. Ties go to the lower account id, and accounts scoring 0 on a column board are unranked: listed after every account scoring, by account id, with rank 0 (\`start\`, \`end\` and \`goToLeaderboardRank\` count positions, so they reach them too). Column boards are served by the rank engine, fresh within a second of an update; identical requests within a second (the default \`SHARED_ANSWER_TTL_MS\`) share one answer. Badge boards: \`badge_completion_time\` ranks the earliest crafters first, \`badge_highest_level\` the highest level.`,
    auth: 'any',
    response: V1LeaderboardGetAccountLeaderboardResponseBody,
    errors: [400, 401, 403, 404, 422, 500],
  })
  async getAccountLeaderboard(
    @Body() body: V1LeaderboardGetAccountLeaderboardRequestBody,
    @CurrentPrincipal() principal: Principal,
    @Res() res: Response,
  ): Promise<void> {
    // The caller's own row (`ownAccount`) makes the caller part of the question.
    const operation = { operationId: 'leaderboard.getAccountLeaderboard', schema: V1LeaderboardGetAccountLeaderboardResponseBody.name };
    await this.shared.send(res, operation, [body, principal.accountId], () => this.accountBoards.get(body, principal.accountId));
  }

  @WireOperation({
    operationId: 'leaderboard.previewAccountRank',
    summary: 'Preview of an account’s rank, with its neighbours',
    description:
      'With `value`, where that score would rank (first among equal scores); otherwise the account’s current rank. Name an account, give a value, or both.',
    auth: 'any',
    response: V1LeaderboardPreviewAccountRankResponseBody,
    errors: [400, 401, 404, 422, 500],
  })
  previewAccountRank(@Body() body: V1LeaderboardPreviewAccountRankRequestBody): Promise<V1LeaderboardPreviewAccountRankResponseBody> {
    return this.previews.preview(body);
  }

  @WireOperation({
    operationId: 'leaderboard.getBucketLeaders',
    summary: 'Top account in each value bucket',
    description: `A bare array. \`xp\`: buckets of \`bucketSize\` levels, the leader being the most xp; \`apps\`: buckets between the game-collector thresholds ${APP_THRESHOLDS.join(', ')}. The last bucket is open.`,
    auth: 'any',
    bareResponse: { type: 'array', items: { $ref: '#/components/schemas/BucketLeader' }, nullable: true },
    extraModels: [BucketLeader],
    errors: [400, 401, 422, 500],
  })
  async getBucketLeaders(@Body() body: V1LeaderboardGetBucketLeadersRequestBody, @Res() res: Response): Promise<void> {
    await this.shared.send(res, { operationId: 'leaderboard.getBucketLeaders', schema: null }, body, () => this.buckets.leaders(body));
  }

  @WireOperation({
    operationId: 'leaderboard.getLowestRanks',
    summary: 'How far down the board each milestone reaches',
    description: `A bare map. Keys are milestones — levels in steps of ${LEVEL_STEP} on \`xp\`, the game-collector thresholds ${APP_THRESHOLDS.join(', ')} on \`apps\` — and each value is the lowest rank on the global board still held by an account that reached the milestone (the number of ranked accounts at or above it). Milestones nobody reached are left out.`,
    auth: 'any',
    bareResponse: { type: 'object', additionalProperties: { type: 'integer' }, example: { '10': 52311, '20': 20417 } },
    errors: [400, 401, 422, 500],
  })
  async getLowestRanks(@Body() body: V1LeaderboardGetLowestRanksRequestBody, @Res() res: Response): Promise<void> {
    await this.shared.send(res, { operationId: 'leaderboard.getLowestRanks', schema: null }, body, () =>
      this.lowest.lowestRanks(body.leaderboard),
    );
  }

  @WireOperation({
    operationId: 'leaderboard.getChanges',
    summary: 'Top movers over a window on a leaderboard',
    description: `Sorted by the size of the change. The old score is what an account’s first update in the window found before it ran; accounts first added in the window have no old score and are not listed. By rank (\`metric: rank\`), accounts not refreshed in the window whose rank others moved (passed by a riser: they fell) are listed too, within the board’s first ${FALLERS_DEPTH.toLocaleString('en-US')} places. Awards and points boards never move (no update records them; the platform the service reads has no source for them). No credential needed.`,
    auth: 'optional',
    response: LeaderboardGetChangesResponseBody,
    errors: [400, 422, 500],
  })
  async getChanges(@Body() body: LeaderboardGetChangesRequestBody, @Res() res: Response): Promise<void> {
    const operation = { operationId: 'leaderboard.getChanges', schema: LeaderboardGetChangesResponseBody.name };
    await this.shared.send(res, operation, body, () => this.changes.changes(body));
  }

  @WireOperation({
    operationId: 'leaderboard.listBadges',
    summary: 'Badges available for leaderboard tracking',
    description:
      'Every badge held by at least one tracked account, with completion statistics and rarity, maintained by the update worker (at most a second behind the last committed update).',
    auth: 'any',
    response: V1LeaderboardListBadgesResponseBody,
    errors: [400, 401, 500],
    noBody: true,
  })
  async listBadges(@Res() res: Response): Promise<void> {
    // Rendered once per state of the listing (see LeaderboardBadgesService), `$schema` included; its version is
    // checked once per shared answer's lifetime.
    const operation = { operationId: 'leaderboard.listBadges', schema: V1LeaderboardListBadgesResponseBody.name };
    await this.shared.sendRendered(res, operation, null, () => this.badgeBoards.list());
  }
}
