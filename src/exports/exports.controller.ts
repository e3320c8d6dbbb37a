import { Body, Controller, Res } from '@nestjs/common';
import { ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Response } from 'express';
import { V1AccountGetInfoResponseBody } from '../accounts/dto/account-profile.dto';
import { V1AccountApp } from '../accounts/dto/list-apps.dto';
import { V1AppBadge } from '../apps/dto/app-badges.dto';
import { V1CraftingBadge } from '../crafting/dto/crafting-plan.dto';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { V1AccountLeaderboardAccount } from '../leaderboards/dto/account-leaderboard.dto';
import { AccountExportService, CRAFTING_PLAN_COLUMNS } from './account-export.service';
import { ACCOUNT_EXPORT_SECTIONS, AccountExportRequestBody, LeaderboardExportRequestBody } from './dto/exports.dto';
import { MEDIA_TYPES } from './export-writer';
import { LEADERBOARD_EXPORT_COLUMNS, LeaderboardExportService } from './leaderboard-export.service';

const STREAMED =
  'Streamed as it is read, a batch at a time, at the pace the client reads (memory stays bounded whatever the size); ' +
  'a client may stop reading and close at any time. A problem found before the first row (401, 404, 422, 429, 503) is a ' +
  'problem document; a failure after it cuts the response short (no clean end), so a complete body is a complete export. ' +
  'Bounded per account: `EXPORTS_PER_MINUTE` starts a minute (default 4) and `EXPORTS_PER_ACCOUNT` at once (default 1), ' +
  '429 with Retry-After past either; `EXPORTS_MAX_OPEN` per API process (default 4), 503 past it. ' +
  'CSV: RFC 4180 with CRLF line ends, objects and arrays as JSON text, empty cells for null, and a text starting with ' +
  "`=`, `+`, `-`, `@`, a tab or a CR prefixed with `'` (so no spreadsheet runs it as a formula).";

/** NDJSON lines described as the items of an array (one JSON value per line), CSV as text with an example. */
const ndjson = (items: object, example: string) => ({ schema: { type: 'array' as const, items }, example });
const csv = (example: string) => ({ schema: { type: 'string' as const }, example });

@ApiTags('export')
@Controller('v1')
export class ExportsController {
  constructor(
    private readonly accounts: AccountExportService,
    private readonly boards: LeaderboardExportService,
  ) {}

  @WireOperation({
    operationId: 'account.export',
    summary: 'Export an account’s data as NDJSON or CSV (extension)',
    description:
      'An extension of this service, not in the wire reference. The data of the account named (any tracked account, as ' +
      '`account.getInfo`, `account.listBadges` and `account.listApps` read it) or, naming none, the caller’s own, by ' +
      `section: ${ACCOUNT_EXPORT_SECTIONS.map((section) => `\`${section}\``).join(', ')}. \`profile\` is \`account.getInfo\`’s answer ` +
      '(without `$schema`; no view is counted), `badges` every item `account.listBadges` would page through (by badge id), ' +
      '`apps` every item of `account.listApps` (by app id), `craftingPlan` every badge of `account.getCraftingPlan`’s plan ' +
      '(by app id, the normal badge before the foil one; computed before the first row). A plan is refused as that operation ' +
      'refuses it (a private profile or inventory, 403; an account never refreshed, 409): with `craftingPlan` named in ' +
      '`sections` that is the answer (a problem document); with the sections defaulted the section is left out. ' +
      'NDJSON: one line `{"section": …, "data": …}` per row, sections in that order; CSV: one section’s table (`craftingPlan`: ' +
      `columns ${CRAFTING_PLAN_COLUMNS.join(', ')}, \`cards\` as \`<held>x <market hash name> @<cents, ? when unpriced>\` joined ` +
      `by \`; \`). ${STREAMED}`,
    auth: 'any',
    content: {
      [MEDIA_TYPES.ndjson]: ndjson(
        {
          type: 'object',
          required: ['section', 'data'],
          properties: {
            section: { type: 'string', enum: [...ACCOUNT_EXPORT_SECTIONS] },
            data: {
              oneOf: [
                { $ref: getSchemaPath(V1AccountGetInfoResponseBody) },
                { $ref: getSchemaPath(V1AppBadge) },
                { $ref: getSchemaPath(V1AccountApp) },
                { $ref: getSchemaPath(V1CraftingBadge) },
              ],
            },
          },
        },
        '{"section":"apps","data":{"id":730,"name":"Counter-Strike 2","image":"8dbc71957312bbd3baea65848b545be9eae2a355","playtime":5120,"price":0}}\n',
      ),
      [MEDIA_TYPES.csv]: csv('id,name,image,playtime,price\r\n730,Counter-Strike 2,8dbc71957312bbd3baea65848b545be9eae2a355,5120,0\r\n'),
    },
    extraModels: [V1AccountGetInfoResponseBody, V1AppBadge, V1AccountApp, V1CraftingBadge],
    errors: [400, 401, 403, 404, 409, 422, 500],
    noStore: true,
  })
  async exportAccount(
    @Body() body: AccountExportRequestBody,
    @CurrentPrincipal() principal: Principal,
    @Res() res: Response,
  ): Promise<void> {
    await this.accounts.export(body, principal, res);
  }

  @WireOperation({
    operationId: 'leaderboard.export',
    summary: 'Export a range of a leaderboard as NDJSON or CSV (extension)',
    description:
      'An extension of this service, not in the wire reference. Any board `leaderboard.getAccountLeaderboard` reads ' +
      '(`leaderboard`, `app`, `badge`, `location` as there), positions `start`…`end` (default: the whole board), each row ' +
      'as that operation’s `accounts` item; accounts that chose to be hidden are left out (their positions stay taken). ' +
      'Read `EXPORTS_BATCH` positions at a time (default 1000) from the rank engine; a board that moves during the export ' +
      `is read as it stands at each batch. CSV columns: ${LEADERBOARD_EXPORT_COLUMNS.join(', ')}. ${STREAMED}`,
    auth: 'any',
    content: {
      [MEDIA_TYPES.ndjson]: ndjson(
        { $ref: getSchemaPath(V1AccountLeaderboardAccount) },
        '{"steamId":"76561197960265729","name":"Ada","level":42,"xp":12345,"rank":1,"appPlaytime":null}\n',
      ),
      [MEDIA_TYPES.csv]: csv(`${LEADERBOARD_EXPORT_COLUMNS.join(',')}\r\n`),
    },
    extraModels: [V1AccountLeaderboardAccount],
    errors: [400, 401, 404, 422, 500],
  })
  async exportLeaderboard(
    @Body() body: LeaderboardExportRequestBody,
    @CurrentPrincipal() principal: Principal,
    @Res() res: Response,
  ): Promise<void> {
    await this.boards.export(body, principal, res);
  }
}
