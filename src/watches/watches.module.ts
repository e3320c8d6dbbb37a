/**
 * # Watches
 *
 * A signed-in user's alerts (extensions of this service): `account.createWatch`, `account.listWatches`,
 * `account.deleteWatch` (user session only, like the preferences; API keys get the events, not the management).
 * Three kinds, each on one target (`account_watches.target`):
 *
 * - `setPrice`: an app's normal or foil set price at or below a value (`price:<app>:<normal|foil>`);
 * - `rank`: an account's global rank on a column board crossing a value, either way (`rank:<account>`; the rank at
 *   creation, then at each evaluation, is kept in `last_value`, so only a crossing fires);
 * - `friendBadge`: a friend of the owner crafting a badge level, of one app or any: one friend (`friend:<account>`),
 *   or any friend (`friends:<owner>`, found from the crafter through `ix_account_friends_friend`).
 *
 * A watch fires once: `fired_at` and `fired` (what was seen) are set by one conditional UPDATE in the worker
 * (`WatchEvaluator`, watches-worker.module.ts), a durable consumer of the change feed (`set-prices` and `update-run`
 * entries; a fact committed while no worker ran is handled once one is back); each fact costs one probe of the
 * partial index of waiting watches on its target. A fired watch is sent as a
 * `watch.fired` event of the signed webhooks (to the owner's developer apps' endpoints that asked for it) and as
 * `watch-fired` on the owner's `account.subscribe` stream (`WatchDelivery`). At most WATCHES_PER_ACCOUNT per
 * account, fired ones included, counted under an advisory lock on the account.
 */
import { Module } from '@nestjs/common';
import { RanksModule } from '../ranks/ranks.module';
import { WatchesController } from './watches.controller';
import { WatchesService } from './watches.service';

@Module({
  imports: [RanksModule],
  controllers: [WatchesController],
  providers: [WatchesService],
})
export class WatchesModule {}
