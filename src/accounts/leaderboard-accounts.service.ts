import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { LeaderboardAccount } from './dto/leaderboard-account.dto';
import { AccountRoleEntity } from './entities/account-role.entity';
import { AccountEntity } from './entities/account.entity';
import { toLeaderboardAccount } from './mappers/profile.mapper';

/** Loads accounts as `LeaderboardAccount` rows, one query for any number of them. */
@Injectable()
export class LeaderboardAccountsService {
  private byIdsSql: string | null = null;

  constructor(
    @InjectRepository(AccountEntity) private readonly accounts: Repository<AccountEntity>,
    @InjectRepository(AccountRoleEntity) private readonly roles: Repository<AccountRoleEntity>,
  ) {}

  /**
   * Plain rows under the entities' property names, read with one `= ANY($1)`: every listing of up to a thousand
   * accounts goes through here, and hydrating entities cost more than the queries (the columns are plain integers,
   * text, booleans and timestamps, which the driver parses exactly as TypeORM would). Each account's roles come in
   * the same statement, as a JSON list (a second statement per listing cost as much API CPU as the rest of it).
   */
  async byIds(accountIds: number[]): Promise<Map<number, LeaderboardAccount>> {
    return (await this.withHidden(accountIds)).cards;
  }

  /**
   * `byIds`, and which of the accounts chose to be hidden (`account_settings.hidden`), in the same statement: the
   * leaderboard windows need both (a hidden account keeps its rank but its row is not shown).
   */
  async withHidden(accountIds: number[]): Promise<{ cards: Map<number, LeaderboardAccount>; hidden: Set<number> }> {
    if (!accountIds.length) return { cards: new Map(), hidden: new Set() };
    this.byIdsSql ??= `SELECT ${selectList(this.accounts)},
        COALESCE((SELECT json_agg(json_build_object('accountId', r.account_id, 'role', r.role, 'rating', r.rating, 'extras', r.extras)
                                  ORDER BY r.rating DESC, r.role)
                    FROM account_roles r WHERE r.account_id = accounts.account_id), '[]') AS "accountRoles",
        EXISTS (SELECT 1 FROM account_settings s WHERE s.account_id = accounts.account_id AND s.hidden) AS "isHidden"
        FROM accounts WHERE account_id = ANY($1)`;
    const accounts: (AccountEntity & { accountRoles: AccountRoleEntity[]; isHidden: boolean })[] = await this.accounts.query(
      this.byIdsSql,
      [accountIds],
    );
    return {
      cards: new Map(accounts.map((account) => [account.accountId, toLeaderboardAccount(account, account.accountRoles)])),
      hidden: new Set(accounts.filter((account) => account.isHidden).map((account) => account.accountId)),
    };
  }

  /** The largest page a caller may ask of the donor-perk listings, from its roles. */
  async maxPageSize(accountId: number): Promise<number> {
    const roles = await this.roles.find({ where: { accountId } });
    return Math.max(DEFAULT_PAGE_SIZE, ...roles.map((role) => PAGE_SIZE_BY_ROLE[role.role] ?? 0));
  }
}

/** Page sizes of `badge.listCrafters` and `app.listOwners`: a perk of donors (and of staff). */
export const DEFAULT_PAGE_SIZE = 25;
const PAGE_SIZE_BY_ROLE: Partial<Record<string, number>> = { donator: 100, staff: 500, owner: 500, developer: 500 };

/** Every column of an entity's table as `column AS "property"`. */
export function selectList(repository: Repository<object>): string {
  return repository.metadata.columns.map((column) => `${column.databaseName} AS "${column.propertyName}"`).join(', ');
}
