import type { PlacedAccount } from './rank-replica';

/**
 * What the rank engine publishes on `RankKeys.placed` once the version being served holds it: the accounts it has
 * just placed (their stored rows, so a replica needs no read of its own), or that it rebuilt every set from
 * PostgreSQL (a replica then reads every row again).
 */
export type RankReplicaMessage = { placed: PlacedAccount[] } | { reload: true };
