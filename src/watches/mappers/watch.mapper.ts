import { Watch } from '../dto/watches.dto';
import { AccountWatchEntity } from '../entities/account-watch.entity';

/** A stored watch as the wire shows it: every parameter named, null where its kind has none. */
export function toWatch(row: AccountWatchEntity): Watch {
  const p = row.params;
  return {
    watchId: row.watchId,
    kind: row.kind,
    appId: p.appId ?? null,
    foil: p.foil ?? null,
    atOrBelowCents: p.atOrBelowCents ?? null,
    accountId: p.accountId ?? null,
    leaderboard: p.leaderboard ?? null,
    rank: p.rank ?? null,
    direction: p.direction ?? null,
    createdAt: row.createdAt.toISOString(),
    firedAt: row.firedAt ? row.firedAt.toISOString() : null,
    fired: row.fired,
  };
}
