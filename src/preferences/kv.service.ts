import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { unprocessable } from '../common/problem/problem.exception';
import { KvListEntry, KvSetRequestBody } from './dto/kv.dto';
import { KV_LIMITS, KV_LOCKS } from './preference-limits';

interface Usage {
  /** Entries other than the one being set. */
  others: number;
  /** Value bytes of the account's other entries, and of the other entries of the namespace. */
  account_bytes: number;
  namespace_bytes: number;
}

/** kv.set, kv.list, kv.delete: the web app's per-account preferences, within KV_LIMITS. */
@Injectable()
export class KvService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Under a lock on the account (advisory, for this transaction): the usage read after it counts every committed set,
   * so concurrent sets are judged one after another and cannot overshoot a limit together.
   */
  async set(accountId: number, { namespace, key, value }: KvSetRequestBody): Promise<void> {
    const bytes = Buffer.byteLength(value, 'utf8');
    if (bytes > KV_LIMITS.valueBytes)
      throw tooLarge('body.value', `is ${bytes} bytes of UTF-8; a value holds at most ${KV_LIMITS.valueBytes}`);
    await this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1, $2)', [KV_LOCKS, accountId]);
      const [usage]: Usage[] = await manager.query(
        `SELECT count(*) FILTER (WHERE NOT mine)::int AS others,
                coalesce(sum(octet_length(value)) FILTER (WHERE NOT mine), 0)::int AS account_bytes,
                coalesce(sum(octet_length(value)) FILTER (WHERE NOT mine AND namespace = $2), 0)::int AS namespace_bytes
         FROM (SELECT value, namespace, (namespace = $2 AND key = $3) AS mine FROM account_kv_entries WHERE account_id = $1) e`,
        [accountId, namespace, key],
      );
      if (usage.others + 1 > KV_LIMITS.entriesPerAccount) {
        throw tooLarge('body.key', `would be entry ${usage.others + 1}; an account holds at most ${KV_LIMITS.entriesPerAccount}`);
      }
      if (usage.namespace_bytes + bytes > KV_LIMITS.namespaceBytes) {
        throw tooLarge(
          'body.value',
          `would bring namespace ${namespace} to ${usage.namespace_bytes + bytes} bytes; at most ${KV_LIMITS.namespaceBytes}`,
        );
      }
      if (usage.account_bytes + bytes > KV_LIMITS.accountBytes) {
        throw tooLarge(
          'body.value',
          `would bring the account's values to ${usage.account_bytes + bytes} bytes; at most ${KV_LIMITS.accountBytes}`,
        );
      }
      await manager.query(
        `INSERT INTO account_kv_entries (account_id, namespace, key, value, updated_at) VALUES ($1, $2, $3, $4, now())
         ON CONFLICT (account_id, namespace, key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
        [accountId, namespace, key, value],
      );
    });
  }

  async list(accountId: number, namespace: string | null): Promise<KvListEntry[]> {
    const rows: { namespace: string; key: string; value: string; updated_at: Date }[] = await this.dataSource.query(
      `SELECT namespace, key, value, updated_at FROM account_kv_entries
       WHERE account_id = $1 AND ($2::text IS NULL OR namespace = $2) ORDER BY namespace, key`,
      [accountId, namespace],
    );
    return rows.map((row) => ({ namespace: row.namespace, key: row.key, value: row.value, updatedAt: row.updated_at.toISOString() }));
  }

  /** Idempotent: a key that is not there is already deleted. */
  async delete(accountId: number, namespace: string, key: string): Promise<void> {
    await this.dataSource.query('DELETE FROM account_kv_entries WHERE account_id = $1 AND namespace = $2 AND key = $3', [
      accountId,
      namespace,
      key,
    ]);
  }
}

function tooLarge(location: string, message: string) {
  return unprocessable('This would take the account’s preferences past a limit; nothing was stored.', [{ location, message }]);
}
