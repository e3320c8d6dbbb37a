import { activityOf, appAt } from './activity';
import { slotsUsed } from './badges';
import type { AccountProfile } from './profile';
import type { World } from './world';
import { Salt, hash, intIn, logUniformInt } from '../random';

/** Truth for one owned game (a superset of what GetOwnedGames shows: includes free games and the free flag). */
export interface OwnedGameTruth {
  appId: number;
  name: string;
  iconHash: string;
  free: boolean;
  playtimeForever: number;
  playtime2Weeks: number;
  rtimeLastPlayed: number;
}

/**
 * Owned games at a tick, in acquisition order: the first max(baseGames, slotsUsed(t)) apps of the account's app
 * order, so every badge app is owned and crafting into a new app "buys" it. Games owned at tick 0 have a
 * pre-epoch playtime (25% never played); the first `favourites` of them keep gaining
 * floor(t * playRatePerMille / 1000) minutes, which also moves playtime_2weeks and rtime_last_played.
 */
export function ownedGames(w: World, p: AccountProfile, tick: number): OwnedGameTruth[] {
  const a = activityOf(w.seed, p.accountId);
  const count = Math.max(a.baseGames, slotsUsed(w, p.accountId, tick));
  const twoWeeks = w.time.ticksIn(14 * 86_400_000);
  const gained = (t: number): number => Math.floor((Math.max(0, t) * a.playRatePerMille) / 1000);
  const out: OwnedGameTruth[] = [];
  for (let i = 0; i < count; i++) {
    const app = w.catalogue.apps[appAt(a, i)];
    const h = (k: number): number => hash(w.seed, Salt.playtime, p.accountId, app.index, k);
    const base = i < a.baseGames && h(0) % 100 >= 25 ? logUniformInt(h(1), 1, 30_000) : 0;
    const gain = i < a.favourites ? gained(tick) : 0;
    let last = 0;
    if (gain > 0) {
      // The tick at which the latest whole minute accrued.
      last = w.time.unixAt(Math.ceil((gain * 1000) / a.playRatePerMille));
    } else if (base > 0) {
      last = intIn(h(2), p.timeCreated, w.time.epochSec - 1);
    }
    out.push({
      appId: app.appId,
      name: app.name,
      iconHash: app.iconHash,
      free: app.free,
      playtimeForever: base + gain,
      playtime2Weeks: gain > 0 ? gain - gained(tick - twoWeeks) : 0,
      rtimeLastPlayed: last,
    });
  }
  return out;
}
