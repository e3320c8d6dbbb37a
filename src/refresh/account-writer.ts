import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { detectActivity } from '../activity/activity-detector';
import { ActivityRecorder } from '../activity/activity-recorder';
import { AppOwnerCounts } from '../apps/owners/app-owner-counts.service';
import { AppCardClasses, CardClass } from '../badges/holders/app-card-classes.service';
import { BadgeHolderStats } from '../badges/holders/badge-holder-stats.service';
import { Holding, HoldingsDiff, diffHoldings } from '../badges/holders/holdings-diff';
import { ItemClassOwners } from '../items/owners/item-class-owners.service';
import { BoardChanges } from '../leaderboards/changes/board-changes.service';
import { ValueLeaders } from '../leaderboards/value-leaders/value-leaders.service';
import { PlatformTotals, TotalsDelta } from '../stats/totals/platform-totals.service';
import { JsonLogger } from '../common/logging/json-logger';
import { ChangeFeed } from '../change-feed/change-feed';
import { AccountEntity } from '../account-records/entities/account.entity';
import { AccountUpdateEntity, CounterSnapshot, UpdateStepRecord } from '../account-records/entities/account-update.entity';
import { locationOf, overriddenLocation } from '../account-records/location/account-location';
import { recordHistory } from '../account-records/history/account-history';
import { PlatformSnapshot } from './platform-snapshot';
import { counterSnapshot, profileFields, statsDeltas } from './profile-fields';
import {
  appRows,
  badgeDefinitions,
  badgeKey,
  catalogueApps,
  foldInventory,
  friendRows,
  groupRows,
  heldBadges,
  inventoryRow,
} from './snapshot-rows';

export interface WriteResult {
  before: CounterSnapshot;
  after: CounterSnapshot;
  /** Whether this was the account's first completed update. */
  firstUpdate: boolean;
  /** Ids of the activity events the update recorded. */
  activityIds: string[];
  nextAllowedTime: Date;
  /** When the run was committed: the time of its rank history point and milestones. */
  finishedAt: Date;
  /** What the update added to the platform totals, exactly as committed (the stats deltas to publish). */
  deltas: TotalsDelta;
}

/** The rows a `DELETE … RETURNING` removed (TypeORM answers such a statement with `[rows, affectedCount]`). */
async function deleteReturning<T>(manager: EntityManager, sql: string, parameters: unknown[]): Promise<T[]> {
  const [rows]: [T[], number] = await manager.query(sql, parameters);
  return rows;
}

/**
 * Stores one refresh: the shared catalogue rows (apps, badge definitions) first, in their own short statements
 * so concurrent refreshes do not queue behind each other's transactions; then the account, its badges, apps,
 * friends, groups and inventory, its counters and the run record, in one transaction. The same transaction keeps
 * the derived state in step (platform totals, badge holder statistics, card classes of apps) from what the
 * update changed, so reads never aggregate the accounts.
 */
@Injectable()
export class AccountWriter {
  private readonly logger = new JsonLogger('AccountWriter');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly activity: ActivityRecorder,
    private readonly totals: PlatformTotals,
    private readonly holderStats: BadgeHolderStats,
    private readonly cardClasses: AppCardClasses,
    private readonly valueLeaders: ValueLeaders,
    private readonly appOwners: AppOwnerCounts,
    private readonly itemOwners: ItemClassOwners,
    private readonly boardChanges: BoardChanges,
    private readonly feed: ChangeFeed,
  ) {}

  async write(
    accountId: number,
    runId: string,
    snapshot: PlatformSnapshot,
    steps: UpdateStepRecord[],
    cooldownSeconds: number,
  ): Promise<WriteResult> {
    await this.upsertApps(snapshot);
    const badgeIds = await this.upsertBadgeDefinitions(snapshot);
    const result = await this.dataSource.transaction(async (manager) => {
      const previous = await manager.findOneOrFail(AccountEntity, { where: { accountId }, lock: { mode: 'pessimistic_write' } });
      const now = new Date();
      const heldBefore = await this.heldBadges(manager, accountId);
      const held = heldBadges(snapshot.badges.badges, (badge) => badgeIds.get(badgeKey(badge))!);
      const badges = diffHoldings(heldBefore, held);
      await this.applyBadges(manager, accountId, badges);
      const apps = await this.replaceApps(manager, accountId, snapshot);
      await this.replaceFriends(manager, accountId, snapshot);
      await this.replaceGroups(manager, accountId, snapshot);
      const cards = await this.replaceInventory(manager, accountId, snapshot);
      const nextAllowedTime = new Date(now.getTime() + cooldownSeconds * 1000);
      const fields = await this.withCountryOverride(manager, accountId, profileFields(snapshot, previous, now));
      await manager.update(
        AccountEntity,
        { accountId },
        {
          ...fields,
          lastQueueStatus: 'completed',
          updatedAt: now,
          nextAllowedTime,
          updateCount: () => 'update_count + 1',
        },
      );
      // Staff read the account's name and location changes (account-records/history); a first update changes nothing.
      if (previous.updatedAt !== null) {
        const next = { ...previous, ...fields };
        await recordHistory(manager, accountId, { name: previous.name, location: previous }, { name: next.name, location: next });
      }
      const before = counterSnapshot(previous);
      const after = counterSnapshot({ ...previous, ...fields });
      await manager.update(AccountUpdateEntity, { runId }, { status: 'completed', finishedAt: now, steps, before, after, error: null });
      const firstUpdate = previous.updatedAt === null;
      const events = detectActivity(
        new Map(heldBefore.map((row) => [row.badgeId, row.level])),
        held,
        { previous: previous.level, current: fields.level ?? previous.level },
        firstUpdate,
        now,
      );
      const activityIds = await this.activity.record(manager, accountId, events, new Set(heldBefore.map((row) => row.badgeId)));
      // Derived state last: its rows are shared with every other writer, so their locks are held the shortest.
      await this.holderStats.apply(manager, badges);
      if (cards) await this.cardClasses.apply(manager, cards.before, cards.after);
      if (cards) await this.itemOwners.apply(manager, cards.classesBefore, cards.classesAfter);
      if (apps) await this.appOwners.apply(manager, apps.before, apps.after);
      await this.valueLeaders.apply(manager, accountId, firstUpdate ? null : previous, { ...previous, ...fields });
      // The stored app rows' playtime, exactly (a duplicated app in the platform's list is stored once).
      const deltas = { ...statsDeltas(before, after, firstUpdate), appPlaytime: apps?.playtime ?? 0 };
      await this.totals.add(manager, accountId, deltas);
      // What the API processes' copies follow (src/change-feed): the account's card, friends and ranks changed. The
      // range of the activity ids it recorded lets a feed consumer read the run's events (the watches: its crafts).
      const ids = activityIds.map(Number);
      const activity = ids.length ? { activityIds: [Math.min(...ids), Math.max(...ids)] } : {};
      await this.feed.record(manager, { kind: 'update-run', accountIds: [accountId], payload: { runId, ...activity } });
      return { before, after, firstUpdate, activityIds, nextAllowedTime, finishedAt: now, deltas };
    });
    // The changes' sorted sets (Redis) move once the rows are committed: they are read back from them. A failure
    // here is not the update's: the sweeper places every completed run again seconds later.
    await this.boardChanges
      .place([accountId])
      .catch((error: Error) => this.logger.warn({ msg: 'changes placement failed', accountId, error: error.message }));
    return result;
  }

  /**
   * The fields with the account's country override, if its user chose one (account-records/location): the platform's
   * location is kept in the settings row for when the override is cleared, and the row carries the override's. The
   * settings row is locked after the account row, in the order account.updateSettings locks them.
   */
  private async withCountryOverride(
    manager: EntityManager,
    accountId: number,
    fields: Partial<AccountEntity>,
  ): Promise<Partial<AccountEntity>> {
    const [override]: { code: string; name: string }[] = await manager.query(
      `SELECT country_override_code AS code, country_override_name AS name FROM account_settings
        WHERE account_id = $1 AND country_override_code IS NOT NULL FOR UPDATE`,
      [accountId],
    );
    if (!override) return fields;
    await manager.query('UPDATE account_settings SET platform_location = $2 WHERE account_id = $1', [
      accountId,
      JSON.stringify(locationOf(fields)),
    ]);
    return { ...fields, ...overriddenLocation(override.code, override.name) };
  }

  /**
   * The apps' rows, written only when new or changed. The apps written are recorded in the change feed (`card-sets`:
   * the planners' CardSetBook holds their names) by the same statement, so the entry commits with them without a
   * transaction or a round trip more; most updates write none, and then record nothing.
   */
  private async upsertApps(snapshot: PlatformSnapshot): Promise<void> {
    const apps = catalogueApps(snapshot);
    if (!apps.size) return;
    const ids = [...apps.keys()].sort((a, b) => a - b);
    await this.dataSource.query(
      `WITH written AS (
         INSERT INTO apps (app_id, name, icon)
         SELECT * FROM unnest($1::int[], $2::text[], $3::text[])
         ON CONFLICT (app_id) DO UPDATE
           SET name = CASE WHEN EXCLUDED.name <> '' THEN EXCLUDED.name ELSE apps.name END,
               icon = CASE WHEN EXCLUDED.icon <> '' THEN EXCLUDED.icon ELSE apps.icon END
           WHERE (EXCLUDED.name <> '' AND EXCLUDED.name <> apps.name) OR (EXCLUDED.icon <> '' AND EXCLUDED.icon <> apps.icon)
         RETURNING app_id)
       INSERT INTO change_feed (kind, payload)
       SELECT 'card-sets', jsonb_build_object('appIds', jsonb_agg(app_id)) FROM written HAVING count(*) > 0`,
      [ids, ids.map((id) => apps.get(id)!.name ?? ''), ids.map((id) => apps.get(id)!.icon ?? '')],
    );
  }

  /** Creates unseen badge definitions and refreshes the platform's scarcity; returns badge key → id. */
  private async upsertBadgeDefinitions(snapshot: PlatformSnapshot): Promise<Map<string, number>> {
    const definitions = badgeDefinitions(snapshot);
    if (!definitions.length) return new Map();
    const keys = definitions.map((d) => d.key);
    await this.dataSource.query(
      `INSERT INTO badges (badge_key, app_id, platform_badge_id, is_foil, scarcity)
       SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::bool[], $5::bigint[])
       ON CONFLICT (badge_key) DO UPDATE SET scarcity = EXCLUDED.scarcity WHERE badges.scarcity <> EXCLUDED.scarcity`,
      [
        keys,
        definitions.map((d) => d.appId),
        definitions.map((d) => d.platformBadgeId),
        definitions.map((d) => d.isFoil),
        definitions.map((d) => d.scarcity),
      ],
    );
    const rows: { id: number; badge_key: string }[] = await this.dataSource.query(
      'SELECT id, badge_key FROM badges WHERE badge_key = ANY($1)',
      [keys],
    );
    return new Map(rows.map((row) => [row.badge_key, row.id]));
  }

  private async heldBadges(manager: EntityManager, accountId: number): Promise<Holding[]> {
    const rows: { badge_id: number; level: number; xp: number; completion_time: Date }[] = await manager.query(
      'SELECT badge_id, level, xp, completion_time FROM account_badges WHERE account_id = $1',
      [accountId],
    );
    return rows.map((row) => ({ badgeId: row.badge_id, level: row.level, xp: row.xp, completionTime: row.completion_time }));
  }

  /** Writes only what changed: most refreshes change a few badges of the hundreds an account holds. */
  private async applyBadges(manager: EntityManager, accountId: number, diff: HoldingsDiff): Promise<void> {
    if (diff.removed.length) {
      await manager.query('DELETE FROM account_badges WHERE account_id = $1 AND badge_id = ANY($2::int[])', [
        accountId,
        diff.removed.map((h) => h.badgeId),
      ]);
    }
    const upserts = [...diff.added, ...diff.changed.map((c) => c.after)];
    if (!upserts.length) return;
    await manager.query(
      `INSERT INTO account_badges (account_id, badge_id, level, xp, completion_time)
       SELECT $1, * FROM unnest($2::int[], $3::int[], $4::int[], $5::timestamptz[])
       ON CONFLICT (account_id, badge_id) DO UPDATE
         SET level = EXCLUDED.level, xp = EXCLUDED.xp, completion_time = EXCLUDED.completion_time`,
      [
        accountId,
        upserts.map((h) => h.badgeId),
        upserts.map((h) => h.level),
        upserts.map((h) => h.xp),
        upserts.map((h) => h.completionTime),
      ],
    );
  }

  /**
   * Returns how much the stored apps' playtime changed and the apps held before and after (null when the library
   * is private and kept).
   */
  private async replaceApps(
    manager: EntityManager,
    accountId: number,
    snapshot: PlatformSnapshot,
  ): Promise<{ playtime: number; before: number[]; after: number[] } | null> {
    if (snapshot.games.visibility === 'private') return null;
    const games = appRows(snapshot.games.games);
    const removed = await deleteReturning<{ app_id: number; playtime: number }>(
      manager,
      'DELETE FROM account_apps WHERE account_id = $1 RETURNING app_id, playtime',
      [accountId],
    );
    const playtimeBefore = removed.reduce((sum, row) => sum + row.playtime, 0);
    const before = removed.map((row) => row.app_id);
    if (!games.length) return { playtime: -playtimeBefore, before, after: [] };
    const inserted: { app_id: number; playtime: number }[] = await manager.query(
      `INSERT INTO account_apps (account_id, app_id, playtime, playtime2_weeks, last_played)
       SELECT $1, * FROM unnest($2::int[], $3::int[], $4::int[], $5::timestamptz[]) ON CONFLICT DO NOTHING RETURNING app_id, playtime`,
      [
        accountId,
        games.map((g) => g.appId),
        games.map((g) => g.playtime),
        games.map((g) => g.playtime2Weeks),
        games.map((g) => g.lastPlayed),
      ],
    );
    const playtime = inserted.reduce((sum, row) => sum + row.playtime, 0) - playtimeBefore;
    return { playtime, before, after: inserted.map((row) => row.app_id) };
  }

  private async replaceFriends(manager: EntityManager, accountId: number, snapshot: PlatformSnapshot): Promise<void> {
    if (snapshot.friends.visibility === 'private') return;
    const friends = friendRows(snapshot.friends.friends);
    await manager.query('DELETE FROM account_friends WHERE account_id = $1', [accountId]);
    if (!friends.length) return;
    await manager.query(
      `INSERT INTO account_friends (account_id, friend_account_id, friend_since)
       SELECT $1, * FROM unnest($2::int[], $3::timestamptz[]) ON CONFLICT DO NOTHING`,
      [accountId, friends.map((f) => f.friendAccountId), friends.map((f) => f.friendSince)],
    );
  }

  private async replaceGroups(manager: EntityManager, accountId: number, snapshot: PlatformSnapshot): Promise<void> {
    if (snapshot.groups.visibility === 'private') return;
    await manager.query('DELETE FROM account_groups WHERE account_id = $1', [accountId]);
    const groups = groupRows(snapshot.groups.groups);
    if (!groups.length) return;
    await manager.query('INSERT INTO account_groups (account_id, group_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [
      accountId,
      groups,
    ]);
  }

  /**
   * Assets of one class are folded into one row with their total amount. Returns the normal card classes and all
   * classes held before and after (null when the inventory is private and kept).
   */
  private async replaceInventory(
    manager: EntityManager,
    accountId: number,
    snapshot: PlatformSnapshot,
  ): Promise<{ before: CardClass[]; after: CardClass[]; classesBefore: string[]; classesAfter: string[] } | null> {
    if (snapshot.inventory.visibility === 'private') return null;
    const folded = foldInventory(snapshot.inventory.items);
    const removed = await deleteReturning<{ class_id: string; app_id: number | null; kind: string }>(
      manager,
      'DELETE FROM inventory_items WHERE account_id = $1 RETURNING class_id, app_id, kind',
      [accountId],
    );
    const before = removed
      .filter((row) => row.kind === 'card' && row.app_id !== null)
      .map((row) => ({ appId: row.app_id!, classId: row.class_id }));
    const rows = folded.map(({ item, amount }) => inventoryRow(item, amount));
    const classes = { classesBefore: removed.map((row) => row.class_id), classesAfter: rows.map((r) => r.classId) };
    const after = rows.filter((r) => r.appId !== null && r.kind === 'card').map((r) => ({ appId: r.appId!, classId: r.classId }));
    if (!rows.length) return { before, after, ...classes };
    await manager.query(
      `INSERT INTO inventory_items (account_id, class_id, app_id, kind, name, market_hash_name, amount, asset_id)
       SELECT $1, * FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[])`,
      [
        accountId,
        rows.map((r) => r.classId),
        rows.map((r) => r.appId),
        rows.map((r) => r.kind),
        rows.map((r) => r.name),
        rows.map((r) => r.marketHashName),
        rows.map((r) => r.amount),
        rows.map((r) => r.assetId),
      ],
    );
    return { before, after, ...classes };
  }
}
