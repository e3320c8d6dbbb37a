import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PlatformTotals } from '../stats/totals/platform-totals.service';
import { ChangeFeed } from '../change-feed/change-feed';

/** Make an account row exist (the CLI, sign-in, tests). Roles are changed through staff/'s StaffChanges, audited. */
@Injectable()
export class AccountAdminService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly totals: PlatformTotals,
    private readonly feed: ChangeFeed,
  ) {}

  /**
   * Creates the account (and its settings row) when missing. A new row has never been refreshed: its
   * `lastQueueStatus` is `undefined` until someone queues an update. Resolves true when the account row is new.
   */
  async ensureAccount(accountId: number, email?: string): Promise<boolean> {
    const created = await this.dataSource.transaction(async (manager) => {
      const inserted: unknown[] = await manager.query(
        'INSERT INTO accounts (account_id) VALUES ($1) ON CONFLICT (account_id) DO NOTHING RETURNING account_id',
        [accountId],
      );
      if (inserted.length) {
        await this.totals.add(manager, accountId, { accountsAdded: 1, totalAccounts: 1 });
        await this.feed.record(manager, { kind: 'account-added', accountIds: [accountId] });
      }
      await manager.query(
        `INSERT INTO account_settings (account_id, email) VALUES ($1, $2)
         ON CONFLICT (account_id) DO UPDATE SET email = COALESCE($3, account_settings.email)`,
        // `.invalid` is reserved for addresses that cannot exist: the user has not given one yet.
        [accountId, email ?? `account-${accountId}@users.invalid`, email ?? null],
      );
      return inserted.length > 0;
    });
    if (created) await this.feed.nudge([accountId]);
    return created;
  }
}
