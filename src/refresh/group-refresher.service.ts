import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { JsonLogger } from '../common/logging/json-logger';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { GroupBoard } from '../groups/group-board.service';
import { PlatformClient } from '../platform/client/platform-client';
import { groupRow, GroupRow } from './group-rows';

/**
 * One group refresh: page 1 of the group's community members list (details, member count, owner) read into its
 * `groups` row, then the group placed on the `most_members` board. A group read within the refresh interval is
 * not read again, so however many accounts' updates enqueue it, the platform is asked once per interval.
 */
@Injectable()
export class GroupRefresher {
  private readonly logger = new JsonLogger('GroupRefresher');

  constructor(
    private readonly client: PlatformClient,
    private readonly board: GroupBoard,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The gids among these that were read within the refresh interval (primary-key probes). */
  async fresh(gids: number[]): Promise<Set<number>> {
    if (!gids.length) return new Set();
    const rows: { gid: string }[] = await this.dataSource.query(
      `SELECT gid FROM groups WHERE gid = ANY($1::bigint[]) AND refreshed_at > now() - make_interval(secs => $2)`,
      [gids, this.config.groups.refreshIntervalSeconds],
    );
    return new Set(rows.map((row) => Number(row.gid)));
  }

  /** Reads the group unless it is fresh; returns whether the platform was asked. */
  async refresh(gid: number): Promise<boolean> {
    if ((await this.fresh([gid])).has(gid)) return false;
    const row = groupRow(gid, await this.client.getGroupMembers(gid));
    const stored = await this.write(row);
    await this.board.place(gid, stored.privacy === 'hidden' ? null : stored.memberCount);
    this.logger.log({ msg: 'group refreshed', gid, privacy: row.privacy, members: row.details?.memberCount ?? null });
    return true;
  }

  /** Upserts the row: the first read sets `first_seen_at`; an unreadable group keeps its last known details. */
  private async write(row: GroupRow): Promise<{ privacy: string; memberCount: number }> {
    const d = row.details;
    const [stored]: { privacy: string; member_count: number }[] = d
      ? await this.dataSource.query(
          `INSERT INTO groups (gid, name, vanity, avatar, privacy, member_count, owner_steam_id, owner_account_id, refreshed_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now())
           ON CONFLICT (gid) DO UPDATE SET name = EXCLUDED.name, vanity = EXCLUDED.vanity, avatar = EXCLUDED.avatar,
             privacy = EXCLUDED.privacy, member_count = EXCLUDED.member_count, owner_steam_id = EXCLUDED.owner_steam_id,
             owner_account_id = EXCLUDED.owner_account_id, refreshed_at = now()
           RETURNING privacy, member_count`,
          [row.gid, d.name, d.vanity, d.avatar, row.privacy, d.memberCount, d.ownerSteamId, d.ownerAccountId],
        )
      : await this.dataSource.query(
          `INSERT INTO groups (gid, privacy, refreshed_at) VALUES ($1, $2, now())
           ON CONFLICT (gid) DO UPDATE SET privacy = EXCLUDED.privacy, refreshed_at = now()
           RETURNING privacy, member_count`,
          [row.gid, row.privacy],
        );
    return { privacy: stored.privacy, memberCount: stored.member_count };
  }
}
