/**
 * # Preferences
 *
 * What the web app keeps for a signed-in user (session only): `kv.set` / `kv.list` / `kv.delete`, opaque strings
 * under a namespace and a key (`account_kv_entries`), and `account.bookmarkBadge` / `account.listBadgeBookmarks`
 * (`account_badge_bookmarks`, badges of the catalogue by their `bdg_<n>` id). Both are bounded per account
 * (preference-limits.ts); a write checks the account's usage and writes under a transaction-scoped advisory lock on the
 * account, so concurrent writes are judged one after another and never overshoot a bound. A refused write stores nothing.
 */
import { Module } from '@nestjs/common';
import { BadgeBookmarksService } from './badge-bookmarks.service';
import { KvService } from './kv.service';
import { BadgeBookmarksController, KvController } from './preferences.controller';

@Module({
  controllers: [KvController, BadgeBookmarksController],
  providers: [KvService, BadgeBookmarksService],
})
export class PreferencesModule {}
