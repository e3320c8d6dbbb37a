import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ChangeFeed } from '../change-feed/change-feed';
import { notFound, serviceUnavailable, unprocessable } from '../common/problem/problem.exception';
import { PlatformClient } from '../platform/client/platform-client';
import { PlatformBudgetExceededError, PlatformError } from '../platform/client/platform.errors';
import { AccountPresence, LookupAnswers } from '../platform/spending/lookup-answers';
import { LOOKUP_CALLS, PlatformSpending } from '../platform/spending/platform-spending';
import { secondsToNextUtcDay } from '../platform/spending/platform-spending';
import { PlatformTotals } from '../stats/totals/platform-totals.service';
import { accountIdOf, steamId64Of } from './account.enums';
import { AccountEntity } from './entities/account.entity';
import { selectList } from './cards/leaderboard-accounts.service';

/** The 404 of an account the service does not track. */
export const notTracked = () => notFound('The account is not tracked by this service; queue an update to add it.');

/** The selector of an account in a request (`AccountSearch`). */
export interface AccountSelector {
  id?: { accountId?: number; steamId64?: string };
  vanity?: { type: 'steam' | 'internal'; value: string };
}

/**
 * Resolves an `AccountSearch`: `id.accountId` first, then `id.steamId64`, then `vanity`. An empty selector is
 * a 422; an account the service does not track is a 404. Only queueing and subscribing may ask the platform: each
 * look-up is reserved against the asking account's share of the call budget (PlatformSpending) and its answer reused
 * for a while (LookupAnswers); a platform that cannot be asked is a 503 with Retry-After, never a 500.
 */
@Injectable()
export class AccountLookupService {
  private byIdSql: string | null = null;
  constructor(
    @InjectRepository(AccountEntity) private readonly accounts: Repository<AccountEntity>,
    private readonly platform: PlatformClient,
    private readonly totals: PlatformTotals,
    private readonly feed: ChangeFeed,
    private readonly spending: PlatformSpending,
    private readonly answers: LookupAnswers,
  ) {}

  /** `at` is where the selector sits in the request (`body.from`), for the 422 of an empty one. */
  async findTracked(selector: AccountSelector, at = 'body'): Promise<AccountEntity> {
    const account = await this.findLocal(selector, at);
    if (!account) throw notTracked();
    return account;
  }

  /**
   * Throws 404 unless the account is tracked or the platform knows it (an account not refreshed yet). Nothing is
   * created: `account.subscribe` waits for the account's first update, which `account.queueUpdate` starts. A look-up
   * is paid by `payer`'s share of the platform budget.
   */
  async assertKnown(accountId: number, payer: number | null): Promise<void> {
    if (await this.accounts.exists({ where: { accountId } })) return;
    if ((await this.presenceOf(accountId, payer)) === 'missing') throw notFound(`Account ${accountId} does not exist on the platform.`);
  }

  /**
   * The account to queue: a tracked one, or one the platform knows (then its row is created: `created`). Resolves
   * with the platform calls the look-up made (0 when tracked or answered from the cache); those calls were reserved
   * against `payer`'s share.
   */
  async resolveForQueue(selector: AccountSelector, payer: number | null): Promise<{ accountId: number; created: boolean; calls: number }> {
    const local = await this.findLocal(selector);
    if (local) return { accountId: local.accountId, created: false, calls: 0 };
    let calls = 0;
    const counted = (made: number) => (calls += made);
    const accountId = await this.platformAccountId(selector, payer, counted);
    if (accountId === null) throw notFound('No such account exists on the platform.');
    if ((await this.presenceOf(accountId, payer, counted)) === 'missing')
      throw notFound(`Account ${accountId} does not exist on the platform.`);
    // The row and its count in the platform totals commit together.
    const created = await this.accounts.manager.transaction(async (manager) => {
      const inserted: unknown[] = await manager.query(
        'INSERT INTO accounts (account_id) VALUES ($1) ON CONFLICT (account_id) DO NOTHING RETURNING account_id',
        [accountId],
      );
      if (!inserted.length) return false;
      await this.totals.add(manager, accountId, { accountsAdded: 1, totalAccounts: 1 });
      await this.feed.record(manager, { kind: 'account-added', accountIds: [accountId] });
      return true;
    });
    if (created) await this.feed.nudge([accountId]);
    return { accountId, created, calls };
  }

  /**
   * Whether the platform knows an untracked account, from the cache or by asking (one call, reserved against
   * `payer`'s share; `payer` null: the operator, unmetered). `counted` hears the calls made.
   */
  private async presenceOf(accountId: number, payer: number | null, counted: (calls: number) => void = () => {}): Promise<AccountPresence> {
    const cached = await this.answers.presence(accountId);
    if (cached) return cached;
    const summaries = await this.askPlatform(payer, counted, () => this.platform.getPlayerSummaries([steamId64Of(accountId)]));
    const presence: AccountPresence = !summaries.length ? 'missing' : summaries[0].communityVisibilityState === 3 ? 'public' : 'private';
    await this.answers.rememberPresence(accountId, presence);
    return presence;
  }

  /** One look-up call: reserved first, given back when it was not made; platform failures as 503 with Retry-After. */
  private async askPlatform<T>(payer: number | null, counted: (calls: number) => void, call: () => Promise<T>): Promise<T> {
    const reservation = payer === null ? null : await this.spending.reserve(payer, LOOKUP_CALLS);
    let made = false;
    try {
      const answer = await call();
      made = true;
      return answer;
    } catch (error) {
      if (error instanceof PlatformBudgetExceededError)
        throw serviceUnavailable('The platform call budget is spent for today; retry tomorrow (UTC).', secondsToNextUtcDay());
      if (error instanceof PlatformError) {
        // Retried and failed: the call was made.
        made = true;
        throw serviceUnavailable('The platform could not be asked about the account; retry shortly.', 5);
      }
      throw error;
    } finally {
      if (made) counted(LOOKUP_CALLS);
      else await reservation?.settle(0).catch(() => undefined);
    }
  }

  private async findLocal(selector: AccountSelector, at = 'body'): Promise<AccountEntity | null> {
    const accountId = this.selectedId(selector, at);
    if (accountId === null) return null;
    if (accountId !== 'vanity') return this.byId(accountId);
    const value = selector.vanity!.value.toLowerCase();
    return this.accounts.findOne({ where: selector.vanity!.type === 'steam' ? { platformVanity: value } : { siteVanity: value } });
  }

  /**
   * The account id a selector names by id, without reading anything (a read that finds the account's rows proves it
   * is stored); null when only a look-up can tell (a vanity, a steamId64 of no account). An empty selector is a 422.
   */
  namedId(selector: AccountSelector, at = 'body'): number | null {
    const id = this.selectedId(selector, at);
    return id === 'vanity' ? null : id;
  }

  /** The account id a selector names (null: a steamId64 of no account), or 'vanity' when a vanity names it. */
  private selectedId({ id, vanity }: AccountSelector, at = 'body'): number | null | 'vanity' {
    if (id?.accountId !== undefined) return id.accountId;
    if (id?.steamId64 !== undefined) return accountIdOf(id.steamId64);
    if (vanity) return 'vanity';
    throw unprocessable('Name the account with `id` or `vanity`.', [
      { location: `${at}.id`, message: 'one of id.accountId, id.steamId64 or vanity is required', value: id },
    ]);
  }

  /**
   * The account row by id as a plain object under the entity's property names (the columns are integers, text,
   * booleans and timestamps, which pg returns as TypeORM would): most account reads start here, and TypeORM's
   * `findOne` builds the statement and hydrates an entity on every call (with the API-key lookup, 3.6 % of the API's
   * CPU profile under account.getInfo and stats.getStats load, docs/performance-history.md "Per-request cost").
   */
  private async byId(accountId: number): Promise<AccountEntity | null> {
    this.byIdSql ??= `SELECT ${selectList(this.accounts)} FROM accounts WHERE account_id = $1`;
    const [row]: AccountEntity[] = await this.accounts.query(this.byIdSql, [accountId]);
    return row ?? null;
  }

  private async platformAccountId(
    selector: AccountSelector,
    payer: number | null,
    counted: (calls: number) => void,
  ): Promise<number | null> {
    const { id, vanity } = selector;
    if (id?.accountId !== undefined) return id.accountId;
    if (id?.steamId64 !== undefined) return accountIdOf(id.steamId64);
    if (vanity?.type === 'steam') {
      const cached = await this.answers.vanity(vanity.value);
      if (cached !== null) return cached === 'missing' ? null : cached;
      const steamId = await this.askPlatform(payer, counted, () => this.platform.resolveVanity(vanity.value));
      const accountId = steamId ? accountIdOf(steamId) : null;
      await this.answers.rememberVanity(vanity.value, accountId);
      return accountId;
    }
    return null;
  }
}
