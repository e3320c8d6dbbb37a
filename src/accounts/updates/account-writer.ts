import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { detectActivity } from '../../activity/activity-detector';
import { ActivityRecorder } from '../../activity/activity-recorder';
import { accountIdOf } from '../account.enums';
import { AccountEntity } from '../entities/account.entity';
import { AccountUpdateEntity, CounterSnapshot, UpdateStepRecord } from '../entities/account-update.entity';
import { PlatformSnapshot } from './platform-snapshot';
import { counterSnapshot, itemKindOf, profileFields } from './profile-fields';

export interface WriteResult {
  before: CounterSnapshot;
  after: CounterSnapshot;
  /** Whether this was the account's first completed update. */
  firstUpdate: boolean;
  /** Ids of the activity events the update recorded. */
  activityIds: string[];
  nextAllowedTime: Date;
}

function badgeKey(badge: { appId?: number; borderColor?: number; badgeId: number }): string {
  return badge.appId !== undefined ? `app:${badge.appId}:${badge.borderColor === 1 ? 'foil' : 'normal'}` : `special:${badge.badgeId}`;
}

/**
 * Stores one refresh: the shared catalogue rows (apps, badge definitions) first, in their own short statements
 * so concurrent refreshes do not queue behind each other's transactions; then the account, its badges, apps,
 * friends, groups and inventory, its counters and the run record, in one transaction.
 */
@Injectable()
export class AccountWriter {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly activity: ActivityRecorder,
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
    return this.dataSource.transaction(async (manager) => {
      const previous = await manager.findOneOrFail(AccountEntity, { where: { accountId }, lock: { mode: 'pessimistic_write' } });
      const now = new Date();
      const heldBefore: { badge_id: number; level: number }[] = await manager.query(
        'SELECT badge_id, level FROM account_badges WHERE account_id = $1',
        [accountId],
      );
      await this.replaceBadges(manager, accountId, snapshot, badgeIds);
      await this.replaceApps(manager, accountId, snapshot);
      await this.replaceFriends(manager, accountId, snapshot);
      await this.replaceGroups(manager, accountId, snapshot);
      await this.replaceInventory(manager, accountId, snapshot);
      const nextAllowedTime = new Date(now.getTime() + cooldownSeconds * 1000);
      const fields = profileFields(snapshot, previous, now);
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
      const before = counterSnapshot(previous);
      const after = counterSnapshot({ ...previous, ...fields });
      await manager.update(AccountUpdateEntity, { runId }, { status: 'completed', finishedAt: now, steps, before, after, error: null });
      const firstUpdate = previous.updatedAt === null;
      const held = snapshot.badges.badges.map((b) => ({
        badgeId: badgeIds.get(badgeKey(b))!,
        level: b.level,
        xp: b.xp,
        completionTime: new Date(b.completionTime * 1000),
      }));
      const events = detectActivity(
        new Map(heldBefore.map((row) => [row.badge_id, row.level])),
        held,
        { previous: previous.level, current: fields.level ?? previous.level },
        firstUpdate,
        now,
      );
      const activityIds = await this.activity.record(manager, accountId, events, new Set(heldBefore.map((row) => row.badge_id)));
      return { before, after, firstUpdate, activityIds, nextAllowedTime };
    });
  }

  private async upsertApps(snapshot: PlatformSnapshot): Promise<void> {
    const apps = new Map<number, { name: string; icon: string }>();
    const note = (appId: number, name = '', icon = '') => {
      const known = apps.get(appId);
      if (!known || (!known.name && name)) apps.set(appId, { name, icon });
    };
    for (const badge of snapshot.badges.badges) if (badge.appId !== undefined) note(badge.appId);
    if (snapshot.games.visibility === 'public') for (const game of snapshot.games.games) note(game.appId, game.name, game.imgIconUrl);
    if (snapshot.inventory.visibility === 'public')
      for (const item of snapshot.inventory.items) if (item.marketFeeApp) note(item.marketFeeApp);
    if (!apps.size) return;
    const ids = [...apps.keys()].sort((a, b) => a - b);
    await this.dataSource.query(
      `INSERT INTO apps (app_id, name, icon)
       SELECT * FROM unnest($1::int[], $2::text[], $3::text[])
       ON CONFLICT (app_id) DO UPDATE
         SET name = CASE WHEN EXCLUDED.name <> '' THEN EXCLUDED.name ELSE apps.name END,
             icon = CASE WHEN EXCLUDED.icon <> '' THEN EXCLUDED.icon ELSE apps.icon END
         WHERE (EXCLUDED.name <> '' AND EXCLUDED.name <> apps.name) OR (EXCLUDED.icon <> '' AND EXCLUDED.icon <> apps.icon)`,
      [ids, ids.map((id) => apps.get(id)!.name ?? ''), ids.map((id) => apps.get(id)!.icon ?? '')],
    );
  }

  /** Creates unseen badge definitions and refreshes the platform's scarcity; returns badge key → id. */
  private async upsertBadgeDefinitions(snapshot: PlatformSnapshot): Promise<Map<string, number>> {
    const byKey = new Map(snapshot.badges.badges.map((badge) => [badgeKey(badge), badge]));
    if (!byKey.size) return new Map();
    const keys = [...byKey.keys()].sort();
    const badges = keys.map((key) => byKey.get(key)!);
    await this.dataSource.query(
      `INSERT INTO badges (badge_key, app_id, platform_badge_id, is_foil, scarcity)
       SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::bool[], $5::bigint[])
       ON CONFLICT (badge_key) DO UPDATE SET scarcity = EXCLUDED.scarcity WHERE badges.scarcity <> EXCLUDED.scarcity`,
      [
        keys,
        badges.map((b) => b.appId ?? null),
        badges.map((b) => b.badgeId),
        badges.map((b) => b.borderColor === 1),
        badges.map((b) => b.scarcity),
      ],
    );
    const rows: { id: number; badge_key: string }[] = await this.dataSource.query(
      'SELECT id, badge_key FROM badges WHERE badge_key = ANY($1)',
      [keys],
    );
    return new Map(rows.map((row) => [row.badge_key, row.id]));
  }

  private async replaceBadges(
    manager: EntityManager,
    accountId: number,
    snapshot: PlatformSnapshot,
    badgeIds: Map<string, number>,
  ): Promise<void> {
    const badges = snapshot.badges.badges;
    await manager.query('DELETE FROM account_badges WHERE account_id = $1', [accountId]);
    if (!badges.length) return;
    await manager.query(
      `INSERT INTO account_badges (account_id, badge_id, level, xp, completion_time)
       SELECT $1, * FROM unnest($2::int[], $3::int[], $4::int[], $5::timestamptz[]) ON CONFLICT DO NOTHING`,
      [
        accountId,
        badges.map((b) => badgeIds.get(badgeKey(b))),
        badges.map((b) => b.level),
        badges.map((b) => b.xp),
        badges.map((b) => new Date(b.completionTime * 1000)),
      ],
    );
  }

  private async replaceApps(manager: EntityManager, accountId: number, snapshot: PlatformSnapshot): Promise<void> {
    if (snapshot.games.visibility === 'private') return;
    const games = snapshot.games.games;
    await manager.query('DELETE FROM account_apps WHERE account_id = $1', [accountId]);
    if (!games.length) return;
    await manager.query(
      `INSERT INTO account_apps (account_id, app_id, playtime, playtime2_weeks, last_played)
       SELECT $1, * FROM unnest($2::int[], $3::int[], $4::int[], $5::timestamptz[]) ON CONFLICT DO NOTHING`,
      [
        accountId,
        games.map((g) => g.appId),
        games.map((g) => g.playtimeForever),
        games.map((g) => g.playtime2Weeks ?? 0),
        games.map((g) => (g.rtimeLastPlayed ? new Date(g.rtimeLastPlayed * 1000) : null)),
      ],
    );
  }

  private async replaceFriends(manager: EntityManager, accountId: number, snapshot: PlatformSnapshot): Promise<void> {
    if (snapshot.friends.visibility === 'private') return;
    const friends = snapshot.friends.friends
      .map((f) => ({ id: accountIdOf(f.steamId), since: f.friendSince ? new Date(f.friendSince * 1000) : null }))
      .filter((f): f is { id: number; since: Date | null } => f.id !== null);
    await manager.query('DELETE FROM account_friends WHERE account_id = $1', [accountId]);
    if (!friends.length) return;
    await manager.query(
      `INSERT INTO account_friends (account_id, friend_account_id, friend_since)
       SELECT $1, * FROM unnest($2::int[], $3::timestamptz[]) ON CONFLICT DO NOTHING`,
      [accountId, friends.map((f) => f.id), friends.map((f) => f.since)],
    );
  }

  private async replaceGroups(manager: EntityManager, accountId: number, snapshot: PlatformSnapshot): Promise<void> {
    if (snapshot.groups.visibility === 'private') return;
    await manager.query('DELETE FROM account_groups WHERE account_id = $1', [accountId]);
    if (!snapshot.groups.groups.length) return;
    await manager.query('INSERT INTO account_groups (account_id, group_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [
      accountId,
      snapshot.groups.groups,
    ]);
  }

  /** Assets of one class are folded into one row with their total amount. */
  private async replaceInventory(manager: EntityManager, accountId: number, snapshot: PlatformSnapshot): Promise<void> {
    if (snapshot.inventory.visibility === 'private') return;
    const byClass = new Map<string, { item: (typeof snapshot.inventory.items)[number]; amount: number }>();
    for (const item of snapshot.inventory.items) {
      const entry = byClass.get(item.classId);
      if (entry) entry.amount += item.amount;
      else byClass.set(item.classId, { item, amount: item.amount });
    }
    await manager.query('DELETE FROM inventory_items WHERE account_id = $1', [accountId]);
    if (!byClass.size) return;
    const rows = [...byClass.values()];
    await manager.query(
      `INSERT INTO inventory_items (account_id, class_id, app_id, kind, name, market_hash_name, amount, asset_id)
       SELECT $1, * FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[])`,
      [
        accountId,
        rows.map((r) => r.item.classId),
        rows.map((r) => r.item.marketFeeApp ?? null),
        rows.map((r) => itemKindOf(r.item)),
        rows.map((r) => r.item.name),
        rows.map((r) => r.item.marketHashName),
        rows.map((r) => r.amount),
        rows.map((r) => r.item.assetId),
      ],
    );
  }
}
