import { createHash } from 'node:crypto';
import { detectActivity } from '../activity/activity-detector';
import { AccountEntity } from '../account-records/entities/account.entity';
import { UpdateStepRecord } from '../account-records/entities/account-update.entity';
import { PlatformSnapshot, PlatformSnapshotReader } from '../refresh/platform-snapshot';
import { counterSnapshot, profileFields } from '../refresh/profile-fields';
import { appRows, catalogueApps, foldInventory, friendRows, groupRows, heldBadges, inventoryRow } from '../refresh/snapshot-rows';
import { UPDATE_STEPS } from '../account-records/progress/update-steps';
import { Holding } from '../badges/holders/holdings-diff';
import { Badge } from '../platform/client/platform.types';
import { Universe } from '../platform/simulator/universe/universe';
import { hash, unit } from '../platform/simulator/random';
import { CatalogueObservations } from './catalogue-observations';
import { CopyText, copyJson, copyValue, isoString } from './copy-text';
import { InProcessPlatformClient } from './in-process-platform';
import { ACCOUNT_FIELDS, SeedTable } from './seed-tables';

export interface SeedParameters {
  seed: number;
  accounts: number;
  /** The seed's "now" (ms): update runs lie before it, the latest within the last 30 days for most accounts. */
  nowMs: number;
  cooldownSeconds: number;
  tickMs: number;
}

/** A badge crafted for the first time in a run; the writer may add a scarcity milestone (decided after the load). */
export interface FirstCraft {
  accountId: number;
  badgeId: number;
  occurredAt: string;
  badge: unknown;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Salts of the seed's own choices, far from the simulator's (1..25), so they do not correlate with its facts. */
const SALT_RUNS = 1001;

/**
 * When an account was refreshed: a first update up to 120 days ago, and for about half of the accounts 1–7
 * more within the last 30 days (at least a cooldown apart), so every window of leaderboard.getChanges has movers.
 */
export function runTimes(p: SeedParameters, accountId: number): number[] {
  const h = (k: number) => hash(p.seed, SALT_RUNS, accountId, k);
  const roll = h(0) % 100;
  const runs = roll < 45 ? 1 : roll < 75 ? 2 : roll < 90 ? 3 : roll < 97 ? 4 : 5 + (h(1) % 4);
  const cooldown = Math.max(p.cooldownSeconds * 1000, 60_000);
  const first = p.nowMs - HOUR_MS - Math.floor(unit(h(2)) * 120 * DAY_MS);
  const windowStart = Math.max(first + cooldown, p.nowMs - 30 * DAY_MS);
  const later: number[] = [];
  if (windowStart < p.nowMs) for (let k = 1; k < runs; k++) later.push(windowStart + Math.floor(unit(h(2 + k)) * (p.nowMs - windowStart)));
  const times = [first];
  for (const t of later.sort((a, b) => a - b)) if (t - times[times.length - 1] >= cooldown) times.push(t);
  return times;
}

/**
 * Badge ids fixed up front, so that generating threads agree without asking the database (the writer lets a
 * sequence number definitions in order of first sight; ids are surrogate keys either way): special badges keep
 * their platform id 1..64, app badges follow in catalogue order, normal then foil.
 */
export function seedBadgeIdOf(universe: Universe): (badge: Badge) => number {
  // By numbers, not by badgeKey: building, hashing and sorting a key string for each badge of each run (heldBadges,
  // badgeDefinitions) took a sixth of a generating thread's profile.
  const appIndex = new Map(universe.catalogue.apps.map((app) => [app.appId, app.index]));
  return (badge) => {
    if (badge.appId === undefined) {
      if (badge.badgeId >= 1 && badge.badgeId <= SPECIAL_BADGES) return badge.badgeId;
      throw new Error(`special badge ${badge.badgeId} is outside the seed's numbering`);
    }
    const index = appIndex.get(badge.appId);
    if (index === undefined) throw new Error(`app ${badge.appId} of a badge is not in the simulator's catalogue`);
    return SPECIAL_BADGES + 1 + 2 * index + (badge.borderColor === 1 ? 1 : 0);
  };
}

/** Special badges keep their platform ids 1..64; app badges are numbered after them. */
const SPECIAL_BADGES = 64;

/** The account row as `INSERT INTO accounts (account_id)` creates it when an update is first queued. */
function freshAccount(accountId: number, addedAt: Date): AccountEntity {
  // One literal (not spreads): this runs once per seeded account.
  const account: Partial<AccountEntity> = {
    name: '',
    avatar: '',
    privacy: 'public',
    appPrivacy: 'public',
    friendPrivacy: 'public',
    inventoryPrivacy: 'public',
    platformVanity: null,
    platformCreatedAt: null,
    countryCode: null,
    countryName: null,
    stateCode: null,
    stateName: null,
    cityId: null,
    cityName: null,
    region: null,
    apps: 0,
    playtime: 0,
    friends: 0,
    badges: 0,
    foilBadges: 0,
    normalBadges: 0,
    specialBadges: 0,
    xp: 0,
    level: 0,
    vacBans: 0,
    gameBans: 0,
    communityBan: false,
    economyBan: 'none',
    bans: 0,
    lastBanDate: null,
    siteScore: 0,
    accountId,
    lastQueueStatus: 'undefined',
    updatedAt: null,
    nextAllowedTime: addedAt,
    updateCount: 0,
    addedAt,
  };
  return account as AccountEntity;
}

function runId(seed: number, accountId: number, run: number): string {
  const hex = createHash('sha1').update(`seed:${seed}:${accountId}:${run}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The step records of a completed run, as UpdateProgressService leaves them: every step done, in order. */
function completedSteps(startedAt: number, finishedAt: number): UpdateStepRecord[] {
  const span = Math.floor((finishedAt - startedAt) / UPDATE_STEPS.length);
  const at = (i: number) => isoString(new Date(i === UPDATE_STEPS.length ? finishedAt : startedAt + i * span));
  return UPDATE_STEPS.map((name, i) => ({ name, status: 'done', startedAt: at(i), finishedAt: at(i + 1) }));
}

export type TableTexts = Record<SeedTable, CopyText>;

/**
 * Replays the update runs of one account against the in-process simulator and renders what the worker would have
 * stored after the last of them: for each run the real PlatformSnapshotReader reads the platform at the run's
 * tick, and profileFields / counterSnapshot / detectActivity and the row functions of snapshot-rows.ts derive
 * counters, run records, activity and rows, exactly as AccountWriter derives them.
 */
export class AccountHistory {
  private readonly reader: PlatformSnapshotReader;
  private readonly badgeIdOf: (badge: Badge) => number;
  private readonly fields = new Set<string>(ACCOUNT_FIELDS);

  constructor(
    private readonly universe: Universe,
    private readonly client: InProcessPlatformClient,
    private readonly p: SeedParameters,
    reader: PlatformSnapshotReader,
  ) {
    this.reader = reader;
    this.badgeIdOf = seedBadgeIdOf(universe);
  }

  async generate(accountId: number, out: TableTexts, catalogue: CatalogueObservations, firstCrafts: FirstCraft[]): Promise<void> {
    const times = runTimes(this.p, accountId);
    const queuedAt = (t: number) => t - 2000 - (hash(this.p.seed, SALT_RUNS + 1, accountId, t % 100_000) % 60_000);
    let account = freshAccount(accountId, new Date(queuedAt(times[0])));
    let held = new Map<number, number>();
    let lastHoldings: Holding[] = [];
    const kept: Partial<Record<'apps' | 'friends' | 'groups' | 'inventory', PlatformSnapshot>> = {};
    for (let run = 0; run < times.length; run++) {
      const finishedAt = times[run];
      const now = new Date(finishedAt);
      this.client.tick = this.universe.tickAt(finishedAt);
      this.client.skipInventory = run < times.length - 1;
      const snapshot = await this.reader.read(accountId, async () => undefined);
      const fields = profileFields(snapshot, account, now);
      for (const key of Object.keys(fields))
        if (!this.fields.has(key)) throw new Error(`profileFields sets "${key}", which the seed does not write: add it to ACCOUNT_FIELDS`);
      const before = counterSnapshot(account);
      // One copy of the account per run (this runs ~2 M times in a million-account seed): the counters after the run
      // are read from it, then it becomes the account.
      const updated: AccountEntity = { ...account, ...fields };
      const after = counterSnapshot(updated);
      const firstUpdate = account.updatedAt === null;
      const holdings = heldBadges(snapshot.badges.badges, this.badgeIdOf);
      const events = detectActivity(held, holdings, { previous: account.level, current: fields.level ?? account.level }, firstUpdate, now);
      for (const event of events) {
        out.activity_events.add([copyValue(accountId), copyValue(event.eventType), copyValue(event.occurredAt), copyJson(event.data)]);
        const badge = event.data.badge;
        if (event.eventType === 'badge_crafted' && badge && !held.has(badge.badgeId))
          firstCrafts.push({ accountId, badgeId: badge.badgeId, occurredAt: badge.completionTime, badge });
      }
      const startedAt = finishedAt - 1500;
      out.account_updates.add([
        copyValue(runId(this.p.seed, accountId, run)),
        copyValue(accountId),
        copyValue('completed'),
        copyValue(new Date(queuedAt(finishedAt))),
        copyValue(new Date(startedAt)),
        copyValue(now),
        copyValue(1),
        copyJson(completedSteps(startedAt, finishedAt)),
        copyValue(null),
        copyJson(before),
        copyJson(after),
      ]);
      catalogue.noteBadges(snapshot.badges.badges, this.badgeIdOf, finishedAt, accountId);
      catalogue.noteApps(catalogueApps(snapshot), finishedAt);
      account = Object.assign(updated, {
        lastQueueStatus: 'completed',
        updatedAt: now,
        nextAllowedTime: new Date(finishedAt + this.p.cooldownSeconds * 1000),
        updateCount: account.updateCount + 1,
      } satisfies Partial<AccountEntity>);
      held = new Map(holdings.map((h) => [h.badgeId, h.level]));
      // A private part keeps what an earlier run stored (the writer leaves its rows alone).
      if (snapshot.games.visibility === 'public') kept.apps = snapshot;
      if (snapshot.friends.visibility === 'public') kept.friends = snapshot;
      if (snapshot.groups.visibility === 'public') kept.groups = snapshot;
      if (snapshot.inventory.visibility === 'public') kept.inventory = snapshot;
      lastHoldings = holdings;
    }
    out.accounts.add(ACCOUNT_FIELDS.map((field) => copyValue(account[field])));
    this.renderRows(accountId, lastHoldings, kept, out);
  }

  /**
   * The account's rows after its last run, each table in primary-key order (so COPY appends to the index). The
   * hot tables' rows (~70 an account, integers and instants only) are written field by field as bytes (CopyText).
   */
  private renderRows(accountId: number, holdings: Holding[], kept: Partial<Record<string, PlatformSnapshot>>, out: TableTexts): void {
    const id = copyValue(accountId);
    for (const b of [...holdings].sort((x, y) => x.badgeId - y.badgeId))
      out.account_badges.int(accountId).int(b.badgeId).int(b.level).int(b.xp).instant(b.completionTime).end();
    const games = kept.apps?.games;
    if (games?.visibility === 'public')
      for (const a of appRows(games.games).sort((x, y) => x.appId - y.appId))
        out.account_apps.int(accountId).int(a.appId).int(a.playtime).int(a.playtime2Weeks).instant(a.lastPlayed).end();
    const friends = kept.friends?.friends;
    if (friends?.visibility === 'public')
      for (const f of friendRows(friends.friends).sort((x, y) => x.friendAccountId - y.friendAccountId))
        out.account_friends.int(accountId).int(f.friendAccountId).instant(f.friendSince).end();
    const groups = kept.groups?.groups;
    if (groups?.visibility === 'public')
      for (const g of groupRows(groups.groups).sort()) out.account_groups.addLine(`${id}\t${copyValue(g)}\n`);
    const inventory = kept.inventory?.inventory;
    if (inventory?.visibility === 'public')
      for (const { item, amount } of foldInventory(inventory.items).sort((x, y) => (x.item.classId < y.item.classId ? -1 : 1))) {
        const row = inventoryRow(item, amount);
        out.inventory_items.add([
          id,
          copyValue(row.classId),
          copyValue(row.appId),
          copyValue(row.kind),
          copyValue(row.name),
          copyValue(row.marketHashName),
          copyValue(row.amount),
          copyValue(row.assetId),
        ]);
      }
  }
}
