import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { BadgeBookmarksService } from './badge-bookmarks.service';
import {
  V1AccountBadgeBookmarksResponseBody,
  V1AccountBookmarkBadgeRequestBody,
  V1AccountBookmarkBadgeResponseBody,
} from './dto/badge-bookmarks.dto';
import { KvDeleteRequestBody, KvListRequestBody, KvListResponseBody, KvSetRequestBody } from './dto/kv.dto';
import { KvService } from './kv.service';
import { BOOKMARKS_PER_ACCOUNT, KV_LIMITS } from './preference-limits';

const KV_BOUNDS =
  `Bounds: ${KV_LIMITS.entriesPerAccount} entries per account, ${KV_LIMITS.valueBytes / 1024} KiB per value, ` +
  `${KV_LIMITS.namespaceBytes / 1024} KiB of values per namespace, ${KV_LIMITS.accountBytes / 1024} KiB per account (UTF-8).`;

@ApiTags('kv')
@Controller('v1')
export class KvController {
  constructor(private readonly kv: KvService) {}

  @WireOperation({
    operationId: 'kv.set',
    summary: "Set a user's key/value entry (user session only)",
    description: `Creates or replaces the entry; kv.list shows it with its \`updatedAt\`. ${KV_BOUNDS} A set past any bound is a 422 naming it, and stores nothing.`,
    auth: 'session',
    responseDescription: 'Stored; no body.',
    errors: [400, 401, 422, 500],
  })
  async set(@Body() body: KvSetRequestBody, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.kv.set(principal.accountId, body);
  }

  @WireOperation({
    operationId: 'kv.list',
    summary: "List a user's stored key/value entries (user session only)",
    description: `Every entry of the account, or of one namespace, by namespace and key. ${KV_BOUNDS}`,
    auth: 'session',
    response: KvListResponseBody,
    errors: [401, 422, 500],
  })
  async list(@Body() body: KvListRequestBody, @CurrentPrincipal() principal: Principal): Promise<KvListResponseBody> {
    return { entries: await this.kv.list(principal.accountId, body.namespace ?? null) };
  }

  @WireOperation({
    operationId: 'kv.delete',
    summary: "Delete a user's key/value entry (user session only)",
    description: 'Removes the entry. Idempotent: deleting an entry that is not there is a 204 as well.',
    auth: 'session',
    responseDescription: 'Deleted (or was not there); no body.',
    errors: [400, 401, 422, 500],
  })
  async delete(@Body() body: KvDeleteRequestBody, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.kv.delete(principal.accountId, body.namespace, body.key);
  }
}

@ApiTags('account')
@Controller('v1')
export class BadgeBookmarksController {
  constructor(private readonly bookmarks: BadgeBookmarksService) {}

  @WireOperation({
    operationId: 'account.bookmarkBadge',
    summary: 'Bookmark or unbookmark a badge (user session only)',
    description:
      'Adds the badge to the account’s bookmarks (account.listBadgeBookmarks), or removes it. Bookmarking a bookmarked badge keeps ' +
      `its first \`bookmarkedAt\`; removing one that is not bookmarked changes nothing. 404: no such badge. At most ` +
      `${BOOKMARKS_PER_ACCOUNT} bookmarks per account (one more is a 422, and nothing is stored).`,
    auth: 'session',
    response: V1AccountBookmarkBadgeResponseBody,
    responseDescription: 'Done: an object with its `$schema` only.',
    errors: [400, 401, 404, 422, 500],
  })
  async bookmarkBadge(
    @Body() body: V1AccountBookmarkBadgeRequestBody,
    @CurrentPrincipal() principal: Principal,
  ): Promise<V1AccountBookmarkBadgeResponseBody> {
    await this.bookmarks.bookmark(principal.accountId, body.badgeId, body.bookmark);
    return {};
  }

  @WireOperation({
    operationId: 'account.listBadgeBookmarks',
    summary: 'List bookmarked badges (user session only)',
    description: `The account’s bookmarked badges, newest first (at most ${BOOKMARKS_PER_ACCOUNT}).`,
    auth: 'session',
    response: V1AccountBadgeBookmarksResponseBody,
    errors: [400, 401, 404, 500],
    noBody: true,
  })
  async listBadgeBookmarks(@CurrentPrincipal() principal: Principal): Promise<V1AccountBadgeBookmarksResponseBody> {
    return { bookmarks: await this.bookmarks.list(principal.accountId) };
  }
}
