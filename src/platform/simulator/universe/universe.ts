import { playerBadges } from './badges';
import { Catalogue, type CatalogueApp } from './catalogue';
import { FriendGraph } from './friends';
import { GroupDirectory, type GroupTruth } from './groups';
import { ownedGames, type OwnedGameTruth } from './games';
import { assetsPage, foldedAssets, indexOfAssetId, inventorySize } from './inventory';
import { describe, kindOfClassId } from './items';
import { cities, countries, states } from './locations';
import { marketPrice } from './market';
import { bansOf, isPrivateAccount, profileOf, summaryOf, type AccountProfile } from './profile';
import { TimeModel } from './time';
import { VanityCodec } from './vanity';
import { accountIdOf, steamIdOf, type World } from './world';
import { badgeArt, type BadgeArt } from './badge-art';
import { cardDropsRemaining } from './card-drops';
import { Salt, hash } from '../random';
import { toInventoryItem } from '../../client/platform.mappers';
import type {
  BadgeQuest,
  Friend,
  InventoryItem,
  LocationCity,
  LocationCountry,
  LocationState,
  MarketPrice,
  PlayerBadges,
  PlayerBans,
  PlayerSummary,
  RawInventoryAsset,
  RawInventoryDescription,
} from '../../client/platform.types';

export interface UniverseOptions {
  seed: number;
  /** Accounts 1..accounts exist. */
  accounts: number;
  tickMs?: number;
  epochMs?: number;
  averageFriends?: number;
  hubCap?: number;
}

/** Everything true about one account at one tick (what a full refresh should find). */
export interface AccountSnapshot {
  profile: AccountProfile;
  summary: PlayerSummary;
  bans: PlayerBans;
  badges: PlayerBadges;
  games: OwnedGameTruth[];
  friends: Friend[];
  groups: string[];
}

/**
 * The synthetic platform: pure, deterministic answers from (seed, accountId, tick). Only the friend graph and the
 * app catalogue are built up front; everything per account is derived on demand. Methods taking an account id
 * throw a RangeError outside 1..size (use accountIdOf to map steamids safely).
 */
export class Universe {
  readonly seed: number;
  readonly size: number;
  readonly time: TimeModel;
  readonly catalogue: Catalogue;
  private readonly world: World;
  private readonly vanity: VanityCodec;
  private readonly graph: FriendGraph;
  private readonly groupDirectory: GroupDirectory;
  private lastProfile: AccountProfile | null = null;

  constructor(opts: UniverseOptions) {
    if (!Number.isInteger(opts.accounts) || opts.accounts < 1) throw new RangeError('accounts must be a positive integer');
    this.seed = opts.seed >>> 0;
    this.size = opts.accounts;
    this.time = new TimeModel(opts.epochMs, opts.tickMs);
    this.catalogue = new Catalogue(this.seed);
    this.world = { seed: this.seed, size: this.size, time: this.time, catalogue: this.catalogue };
    this.vanity = new VanityCodec(this.seed, this.size);
    this.graph = new FriendGraph(this.world, { averageDegree: opts.averageFriends, hubCap: opts.hubCap });
    this.groupDirectory = new GroupDirectory(this.world);
  }

  tickAt(clockMs: number): number {
    return this.time.tickAt(clockMs);
  }

  has(accountId: number): boolean {
    return Number.isInteger(accountId) && accountId >= 1 && accountId <= this.size;
  }

  /** Pure arithmetic, also for ids outside the universe (handy to build unknown ids). */
  steamIdOf(accountId: number): string {
    return steamIdOf(accountId);
  }

  accountIdOf(steamId: string): number | null {
    return accountIdOf(this.size, steamId);
  }

  account(accountId: number): AccountProfile {
    // One request reads the profile several times (summary, bans, badges, games, groups), and the seed reads one
    // account's requests in a row: the last profile is kept, frozen so that no caller can change what it shares.
    const last = this.lastProfile;
    if (last?.accountId === accountId) return last;
    const profile = profileOf(this.world, this.vanity, this.check(accountId));
    Object.freeze(profile.groups);
    if (profile.location) Object.freeze(profile.location);
    this.lastProfile = Object.freeze(profile);
    return profile;
  }

  isPrivate(accountId: number): boolean {
    return isPrivateAccount(this.world, this.check(accountId));
  }

  snapshot(accountId: number, tick: number): AccountSnapshot {
    const profile = this.account(accountId);
    return {
      profile,
      summary: summaryOf(this.world, profile, tick),
      bans: bansOf(this.world, profile, tick),
      badges: playerBadges(this.world, profile, tick),
      games: ownedGames(this.world, profile, tick),
      friends: this.graph.friends(accountId, tick),
      groups: profile.groups,
    };
  }

  summary(accountId: number, tick: number): PlayerSummary {
    return summaryOf(this.world, this.account(accountId), tick);
  }

  bans(accountId: number, tick: number): PlayerBans {
    return bansOf(this.world, this.account(accountId), tick);
  }

  badges(accountId: number, tick: number): PlayerBadges {
    return playerBadges(this.world, this.account(accountId), tick);
  }

  /** A badge's name and image hash at a level (badge-art.ts): what its page shows a holder of that level. */
  badgeArt(badge: { appId: number; badgeId: number; foil: boolean }, level: number): BadgeArt {
    return badgeArt(this.world.seed, badge, level);
  }

  level(accountId: number, tick: number): number {
    return this.badges(accountId, tick).playerLevel;
  }

  ownedGames(accountId: number, tick: number): OwnedGameTruth[] {
    return ownedGames(this.world, this.account(accountId), tick);
  }

  /** Card drops an account has left of an owned game at a tick (card-drops.ts); null when it does not own the game. */
  cardDropsRemaining(accountId: number, appId: number, tick: number): number | null {
    const game = this.ownedGames(accountId, tick).find((g) => g.appId === appId);
    const app = this.catalogue.byId(appId);
    return game && app ? cardDropsRemaining(this.world.seed, accountId, app, game.playtimeForever) : null;
  }

  friends(accountId: number, tick: number): Friend[] {
    return this.graph.friends(this.check(accountId), tick);
  }

  friendIds(accountId: number, tick: number): number[] {
    return this.graph.friendIds(this.check(accountId), tick);
  }

  /** Friend count ignoring time (every edge that will ever exist). */
  maxFriends(accountId: number): number {
    return this.graph.degree(this.check(accountId));
  }

  groups(accountId: number): string[] {
    return this.account(accountId).groups;
  }

  /** Gids 1..groupCount exist. */
  get groupCount(): number {
    return this.groupDirectory.pool;
  }

  /** A group's page (its member count included); null for a gid that does not exist. */
  group(gid: number): GroupTruth | null {
    return this.groupDirectory.has(gid) ? this.groupDirectory.details(gid) : null;
  }

  /** A group's member account ids as its members list ranks them: the owner first. */
  groupMembers(gid: number): number[] {
    return this.groupDirectory.membersOf(gid);
  }

  vanityOf(accountId: number): string | null {
    return this.vanity.vanityOf(this.check(accountId));
  }

  resolveVanity(name: string): number | null {
    return this.vanity.resolve(name);
  }

  /** Community badge quests (only badge 2, the community badge, has them: questids 101..128). */
  badgeProgress(accountId: number, badgeId: number): BadgeQuest[] {
    this.check(accountId);
    if (badgeId !== 2) return [];
    const share = hash(this.seed, Salt.quests, accountId) % 101;
    return Array.from({ length: 28 }, (_, i) => ({
      questId: 101 + i,
      completed: hash(this.seed, Salt.quests, accountId, 101 + i) % 100 < share,
    }));
  }

  inventorySize(accountId: number): number {
    return inventorySize(this.world, this.check(accountId));
  }

  /** Position of an asset in the inventory listing, -1 if it is not this account's. */
  inventoryIndexOf(accountId: number, assetId: string): number {
    return indexOfAssetId(this.world, this.check(accountId), assetId);
  }

  inventoryAssets(accountId: number, start = 0, count = Number.MAX_SAFE_INTEGER): RawInventoryAsset[] {
    return assetsPage(this.world, this.check(accountId), start, count);
  }

  /** The inventory folded by class (first asset of each class, summed amounts), without the repeated assets. */
  inventoryFolded(accountId: number): { asset: RawInventoryAsset; amount: number }[] {
    return foldedAssets(this.world, this.check(accountId));
  }

  describe(classId: string): RawInventoryDescription | null {
    const kind = kindOfClassId(this.catalogue, classId);
    return kind ? describe(this.seed, kind) : null;
  }

  /** The whole inventory, as PlatformClient.getInventory returns it. */
  inventory(accountId: number): InventoryItem[] {
    return this.inventoryAssets(accountId).map((a) => toInventoryItem(a, this.describe(a.classid)!));
  }

  marketPrice(marketHashName: string, tick: number, currency = 1): MarketPrice | null {
    return marketPrice(this.world, marketHashName, tick, currency);
  }

  app(appId: number): CatalogueApp | undefined {
    return this.catalogue.byId(appId);
  }

  countries(): LocationCountry[] {
    return countries();
  }

  states(countryCode: string): LocationState[] {
    return states(countryCode);
  }

  cities(countryCode: string, stateCode: string): LocationCity[] {
    return cities(countryCode, stateCode);
  }

  private check(accountId: number): number {
    if (!this.has(accountId)) throw new RangeError(`account ${accountId} is outside 1..${this.size}`);
    return accountId;
  }
}
