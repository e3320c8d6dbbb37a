import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ErrorDetail, notFound, unprocessable } from '../common/problem/problem.exception';
import { AccountRankReader } from '../ranks/account-rank-reader.service';
import { V1AccountCreateWatchRequest, Watch, WATCHES_PER_ACCOUNT } from './dto/watches.dto';
import { AccountWatchEntity, WatchParams } from './entities/account-watch.entity';
import { toWatch } from './mappers/watch.mapper';
import { anyFriendTarget, friendTarget, priceTarget, rankTarget } from './watch-targets';

/** Key class of the transaction-scoped advisory lock taken per account while a watch is added (`pg_advisory_xact_lock`). */
const WATCH_LOCKS = 0x57430001;

/** The fields each kind requires, and those it takes at all (others are refused, not ignored). */
const REQUIRED: Record<AccountWatchEntity['kind'], (keyof V1AccountCreateWatchRequest)[]> = {
  setPrice: ['appId', 'atOrBelowCents'],
  rank: ['accountId', 'leaderboard', 'rank'],
  friendBadge: [],
};
const ALLOWED: Record<AccountWatchEntity['kind'], (keyof V1AccountCreateWatchRequest)[]> = {
  setPrice: ['appId', 'atOrBelowCents', 'foil'],
  rank: ['accountId', 'leaderboard', 'rank', 'direction'],
  friendBadge: ['accountId', 'appId'],
};
const FIELDS: (keyof V1AccountCreateWatchRequest)[] = ['appId', 'foil', 'atOrBelowCents', 'accountId', 'leaderboard', 'rank', 'direction'];

/** account.createWatch, account.listWatches, account.deleteWatch: a signed-in user's own watches (src/watches). */
@Injectable()
export class WatchesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly ranks: AccountRankReader,
  ) {}

  async create(ownerId: number, body: V1AccountCreateWatchRequest): Promise<Watch> {
    const params = this.paramsOf(body);
    const target =
      body.kind === 'setPrice'
        ? priceTarget(params.appId!, params.foil!)
        : body.kind === 'rank'
          ? rankTarget(params.accountId!)
          : params.accountId === undefined
            ? anyFriendTarget(ownerId)
            : friendTarget(params.accountId);
    await this.checkTarget(ownerId, body.kind, params);
    // A rank watch fires on a crossing: the rank now is where it starts from.
    const lastValue = body.kind === 'rank' ? await this.globalRank(params.accountId!, params.leaderboard!) : null;
    return this.dataSource.transaction(async (manager) => {
      // Under a lock on the account, so concurrent creations cannot overshoot the bound.
      await manager.query('SELECT pg_advisory_xact_lock($1, $2)', [WATCH_LOCKS, ownerId]);
      const [{ count }]: { count: number }[] = await manager.query(
        'SELECT count(*)::int AS count FROM account_watches WHERE account_id = $1',
        [ownerId],
      );
      if (count >= WATCHES_PER_ACCOUNT) {
        throw unprocessable(`An account holds at most ${WATCHES_PER_ACCOUNT} watches, fired ones included; delete one first.`, [
          { location: 'body', message: `would be watch ${count + 1}; at most ${WATCHES_PER_ACCOUNT}` },
        ]);
      }
      const row = manager.create(AccountWatchEntity, {
        watchId: `wch_${randomBytes(8).toString('hex')}`,
        accountId: ownerId,
        kind: body.kind,
        target,
        params,
        lastValue,
        firedAt: null,
        fired: null,
      });
      return toWatch(await manager.save(row));
    });
  }

  async list(ownerId: number): Promise<Watch[]> {
    const rows = await this.dataSource.getRepository(AccountWatchEntity).find({
      where: { accountId: ownerId },
      order: { createdAt: 'DESC', watchId: 'DESC' },
      take: WATCHES_PER_ACCOUNT,
    });
    return rows.map(toWatch);
  }

  async delete(ownerId: number, watchId: string): Promise<void> {
    const { affected } = await this.dataSource.getRepository(AccountWatchEntity).delete({ watchId, accountId: ownerId });
    if (!affected) throw notFound(`No watch ${watchId} of yours.`);
  }

  /** The kind's parameters, each required one present and no other given; 422 naming every fault. */
  private paramsOf(body: V1AccountCreateWatchRequest): WatchParams {
    const errors: ErrorDetail[] = [];
    for (const field of REQUIRED[body.kind]) {
      if (body[field] === undefined) errors.push({ location: `body.${field}`, message: `required for a ${body.kind} watch` });
    }
    for (const field of FIELDS) {
      if (body[field] !== undefined && !ALLOWED[body.kind].includes(field)) {
        errors.push({ location: `body.${field}`, message: `not taken by a ${body.kind} watch`, value: body[field] });
      }
    }
    if (errors.length) throw unprocessable(`The ${body.kind} watch's parameters are incomplete or mixed.`, errors);
    switch (body.kind) {
      case 'setPrice':
        return { appId: body.appId, foil: body.foil ?? false, atOrBelowCents: body.atOrBelowCents };
      case 'rank':
        return { accountId: body.accountId, leaderboard: body.leaderboard, rank: body.rank, direction: body.direction ?? 'reaches' };
      case 'friendBadge':
        return {
          ...(body.accountId !== undefined && { accountId: body.accountId }),
          ...(body.appId !== undefined && { appId: body.appId }),
        };
    }
  }

  /** The app, the watched account or the friendship must exist: a watch of nothing would never fire. */
  private async checkTarget(ownerId: number, kind: AccountWatchEntity['kind'], params: WatchParams): Promise<void> {
    if (kind === 'setPrice') {
      // The catalogue's apps, and any app the pricing job has priced (its cards seen held before its game was).
      const rows: unknown[] = await this.dataSource.query(
        'SELECT 1 FROM apps WHERE app_id = $1 UNION ALL SELECT 1 FROM app_market_prices WHERE app_id = $1 LIMIT 1',
        [params.appId],
      );
      if (!rows.length) throw notFound(`App ${params.appId} is not known to this service.`);
    } else if (kind === 'rank') {
      const rows: unknown[] = await this.dataSource.query('SELECT 1 FROM accounts WHERE account_id = $1', [params.accountId]);
      if (!rows.length) throw notFound(`Account ${params.accountId} is not tracked by this service (queue an update first).`);
    } else if (params.accountId !== undefined) {
      const rows: unknown[] = await this.dataSource.query(
        'SELECT 1 FROM account_friends WHERE account_id = $1 AND friend_account_id = $2',
        [ownerId, params.accountId],
      );
      if (!rows.length) {
        throw unprocessable(`Account ${params.accountId} is not in your friend list (as your last update read it).`, [
          { location: 'body.accountId', message: 'not a friend of the caller', value: params.accountId },
        ]);
      }
    }
  }

  private async globalRank(accountId: number, board: string): Promise<number | null> {
    const rank = (await this.ranks.accountRanks(accountId))?.get(board)?.ranks[0] ?? 0;
    return rank > 0 ? rank : null;
  }
}
