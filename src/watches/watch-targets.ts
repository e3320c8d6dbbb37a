import { WatchParams } from './entities/account-watch.entity';

/** The evaluator's look-up keys (account_watches.target): one per thing a change is about. */
export const priceTarget = (appId: number, foil: boolean) => `price:${appId}:${foil ? 'foil' : 'normal'}`;
export const rankTarget = (accountId: number) => `rank:${accountId}`;
export const friendTarget = (accountId: number) => `friend:${accountId}`;
/** A `friendBadge` watch on any friend of its owner: found from the crafter through the friend lists' reverse index. */
export const ANY_FRIEND_PREFIX = 'friends:';
export const anyFriendTarget = (ownerId: number) => `${ANY_FRIEND_PREFIX}${ownerId}`;

/** Whether a global rank (null: unranked) meets a rank watch's condition. */
export function rankMet(params: WatchParams, rank: number | null): boolean {
  const reaches = rank !== null && rank <= params.rank!;
  return (params.direction ?? 'reaches') === 'reaches' ? reaches : !reaches;
}
