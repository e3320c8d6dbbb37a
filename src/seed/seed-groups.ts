import { Client } from 'pg';
import { Universe } from '../platform/simulator/universe/universe';
import { groupRow, GroupRow } from '../refresh/group-rows';
import { InProcessPlatformClient } from './in-process-platform';

const BATCH = 5_000;

/**
 * The `groups` rows the worker's group refresh would have stored for a seeded population: every group a seeded
 * account is in, plus the service's own group (which the worker always reads), each read once through the real
 * PlatformClient from the in-process simulator and turned into a row by the refresh's own `groupRow`. All were
 * read (and first seen) at the seed's "now", so they are fresh for a refresh interval after it. A row already there
 * (a worker started on the empty database reads the service's group at once) is kept.
 */
export async function seedGroups(client: Client, universe: Universe, serviceGroupId: number, now: Date): Promise<number> {
  const { rows } = await client.query<{ gid: string }>('SELECT DISTINCT group_id AS gid FROM account_groups');
  const gids = [...new Set([...rows.map((row) => Number(row.gid)), serviceGroupId])].sort((a, b) => a - b);
  const platform = new InProcessPlatformClient(universe);
  let inserted = 0;
  for (let i = 0; i < gids.length; i += BATCH) {
    const batch: GroupRow[] = [];
    for (const gid of gids.slice(i, i + BATCH)) batch.push(groupRow(gid, await platform.getGroupMembers(gid)));
    const result = await client.query(
      `INSERT INTO groups (gid, name, vanity, avatar, privacy, member_count, owner_steam_id, owner_account_id, first_seen_at, refreshed_at)
       SELECT g.gid, g.name, g.vanity, g.avatar, g.privacy, g.member_count, g.owner_steam_id, g.owner_account_id, $9, $9
         FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::text[], $8::int[])
           AS g(gid, name, vanity, avatar, privacy, member_count, owner_steam_id, owner_account_id)
       ON CONFLICT (gid) DO NOTHING`,
      [
        batch.map((row) => row.gid),
        batch.map((row) => row.details?.name ?? ''),
        batch.map((row) => row.details?.vanity ?? ''),
        batch.map((row) => row.details?.avatar ?? ''),
        batch.map((row) => row.privacy),
        batch.map((row) => row.details?.memberCount ?? 0),
        batch.map((row) => row.details?.ownerSteamId ?? null),
        batch.map((row) => row.details?.ownerAccountId ?? null),
        now,
      ],
    );
    inserted += result.rowCount ?? 0;
  }
  return inserted;
}
