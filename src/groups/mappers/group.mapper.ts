import { LeaderboardAccount } from '../../account-records/dto/leaderboard-account.dto';
import { V1GroupLeaderboardGroup, V1OwnedGroup } from '../dto/groups.dto';
import { GroupEntity } from '../entities/group.entity';

export function toOwnedGroup(group: GroupEntity): V1OwnedGroup {
  return {
    id: group.gid,
    members: group.memberCount,
    name: group.name,
    tag: group.tag,
    vanity: group.vanity,
    avatar: group.avatar,
    privacy: group.privacy,
    foundedAt: group.firstSeenAt.toISOString(),
  };
}

export function toLeaderboardGroup(group: GroupEntity, rank: number, owner: LeaderboardAccount | null): V1GroupLeaderboardGroup {
  return {
    id: group.gid,
    name: group.name,
    tag: group.tag,
    vanity: group.vanity,
    avatar: group.avatar,
    foundedAt: group.firstSeenAt.toISOString(),
    members: group.memberCount,
    rank,
    privacy: group.privacy,
    owner,
  };
}

/** A group this service has not read yet (the service's own, before the worker's first read): named by its id only. */
export function unreadGroup(gid: number): GroupEntity {
  return {
    gid,
    name: '',
    vanity: '',
    tag: '',
    avatar: '',
    privacy: 'public',
    memberCount: 0,
    ownerSteamId: null,
    ownerAccountId: null,
    firstSeenAt: new Date(),
    refreshedAt: new Date(0),
  };
}
