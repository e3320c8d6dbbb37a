import { Injectable } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { LocationNames, LocationNamesResult } from '../platform/location-names.service';
import { PlatformClient } from '../platform/client/platform-client';
import {
  FriendListResult,
  GroupListResult,
  InventoryResult,
  OwnedGamesResult,
  PlayerBadges,
  PlayerBans,
  PlayerSummary,
} from '../platform/client/platform.types';
import { steamId64Of } from '../account-records/account.enums';
import { UpdateStepName } from '../account-records/progress/update-steps';

/** `communityvisibilitystate` of a public profile; anything else hides all but the summary, bans and badges. */
const PUBLIC_PROFILE = 3;
const PRIVATE = { visibility: 'private' } as const;

/** Everything one refresh reads from the platform about one account. */
export interface PlatformSnapshot {
  summary: PlayerSummary;
  location: LocationNamesResult;
  bans: PlayerBans | null;
  badges: PlayerBadges;
  games: OwnedGamesResult;
  friends: FriendListResult;
  groups: GroupListResult;
  inventory: InventoryResult;
}

/** Reads an account from the platform step by step, reporting each step before it starts. */
@Injectable()
export class PlatformSnapshotReader {
  constructor(
    private readonly client: PlatformClient,
    private readonly locations: LocationNames,
  ) {}

  async read(accountId: number, onStep: (step: UpdateStepName) => Promise<void>): Promise<PlatformSnapshot> {
    const steamId = steamId64Of(accountId);
    await onStep('profile');
    const [summary] = await this.client.getPlayerSummaries([steamId]);
    // The platform no longer knows the account: retrying cannot help.
    if (!summary) throw new UnrecoverableError(`account ${accountId} is unknown to the platform`);
    const location = await this.locations.resolve(summary.locCountryCode, summary.locStateCode, summary.locCityId);
    await onStep('bans');
    const [bans] = await this.client.getPlayerBans([steamId]);
    await onStep('badges');
    const badges = await this.client.getBadges(steamId);
    // A private profile's games, friends, groups and inventory answer "private" (platform-api.md): the summary just
    // said so, and asking would spend three Web API calls (and a community one) to hear it again.
    const hidden = summary.communityVisibilityState !== PUBLIC_PROFILE;
    await onStep('games');
    const games = hidden ? PRIVATE : await this.client.getOwnedGames(steamId, { includeAppInfo: true, includePlayedFreeGames: true });
    await onStep('friends');
    const friends = hidden ? PRIVATE : await this.client.getFriendList(steamId);
    await onStep('groups');
    const groups = hidden ? PRIVATE : await this.client.getUserGroupList(steamId);
    await onStep('inventory');
    const inventory = hidden ? PRIVATE : await this.client.getInventory(steamId);
    return { summary, location, bans: bans ?? null, badges, games, friends, groups, inventory };
  }
}
