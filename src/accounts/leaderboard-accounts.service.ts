import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { LeaderboardAccount } from './dto/leaderboard-account.dto';
import { AccountRoleEntity } from './entities/account-role.entity';
import { AccountEntity } from './entities/account.entity';
import { toLeaderboardAccount } from './mappers/profile.mapper';

/** Loads accounts as `LeaderboardAccount` rows, two queries for any number of them. */
@Injectable()
export class LeaderboardAccountsService {
  constructor(
    @InjectRepository(AccountEntity) private readonly accounts: Repository<AccountEntity>,
    @InjectRepository(AccountRoleEntity) private readonly roles: Repository<AccountRoleEntity>,
  ) {}

  async byIds(accountIds: number[]): Promise<Map<number, LeaderboardAccount>> {
    if (!accountIds.length) return new Map();
    const [accounts, roles] = await Promise.all([
      this.accounts.find({ where: { accountId: In(accountIds) } }),
      this.roles.find({ where: { accountId: In(accountIds) }, order: { rating: 'DESC', role: 'ASC' } }),
    ]);
    return new Map(
      accounts.map((account) => [
        account.accountId,
        toLeaderboardAccount(
          account,
          roles.filter((role) => role.accountId === account.accountId),
        ),
      ]),
    );
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
