import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AccountEntity } from '../account-records/entities/account.entity';
import { StoredLocation, locationOf, locationsDiffer, overriddenLocation } from '../account-records/location/account-location';
import { recordHistory } from '../account-records/history/account-history';
import { ActionThrottle, ThrottleRule } from '../auth/throttle/action-throttle.service';
import { ChangeFeed } from '../change-feed/change-feed';
import { JsonLogger } from '../common/logging/json-logger';
import { ProblemException, notFound, unprocessable } from '../common/problem/problem.exception';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { BoardChanges } from '../leaderboards/changes/board-changes.service';
import { countryCodeOf, countryNameOf, isLanguageCode } from '../platform/country-regions';
import { LocationNames } from '../platform/location-names.service';
import { LazyBoards } from '../ranks/lazy-boards.service';
import { RankEngine } from '../ranks/rank-engine.service';
import { V1AccountUpdateSettingsRequestBody } from './dto/update-settings.dto';

/** What one change of settings asks for; `undefined` leaves a field as it is. */
interface SettingsChange {
  hidden?: boolean;
  language?: string;
  /** null: none. */
  vanity?: string | null;
  /** null: none. */
  email?: string | null;
  /** The override's country, resolved; null: clear it. */
  country?: { code: string; name: string } | null;
}

/** The rows as the transaction found them, locked. */
interface LockedRows {
  account: Pick<AccountEntity, 'siteVanity'> & StoredLocation;
  settings: { email: string; hidden: boolean; countryOverrideCode: string | null; platformLocation: StoredLocation | null } | null;
}

/** What a change did, for the work after its commit. */
interface Effects {
  vanity: boolean;
  location: boolean;
  hidden: boolean;
}

const SQLSTATE_UNIQUE_VIOLATION = '23505';

/**
 * `account.updateSettings` and `account.updateVanity`: a signed-in user changes what is theirs. Each call is judged
 * whole before anything is written (422 naming the field, 409 for a vanity another account holds) and written in one
 * transaction that locks the account row, then its settings row (the refresh writer's order), so nothing is half
 * written and a refresh running at the same time either comes before it or sees it. Both count against
 * `SETTINGS_CHANGES_PER_HOUR` per account (429 past it).
 *
 * A change of vanity, location or hidden is recorded in the change feed in the same transaction (src/change-feed):
 * every API process's card replica reads the card again, its rank replica the account's row. After the commit the
 * change is made visible where Redis holds it:
 * - a moved location (a country override set or cleared): the rank engine places the account again from its row
 *   (its column boards in every scope), then its per-app and per-badge boards;
 * - hidden: the changes' live window places the account again (hidden accounts are never listed there); every other
 *   listing reads `account_settings.hidden` in its own statement.
 * Those are best effort: a failure is logged and the next refresh of the account or a rebuild repairs it.
 */
@Injectable()
export class SettingsUpdater {
  private readonly logger = new JsonLogger('SettingsUpdater');
  private readonly changes: ThrottleRule;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly throttle: ActionThrottle,
    private readonly locationNames: LocationNames,
    private readonly ranks: RankEngine,
    private readonly lazyBoards: LazyBoards,
    private readonly boardChanges: BoardChanges,
    private readonly feed: ChangeFeed,
  ) {
    this.changes = {
      action: 'settings-changes',
      limit: config.accountSettings.changesPerHour,
      windowSeconds: 3600,
      detail: 'This account changed its settings too often; retry after the Retry-After delay.',
    };
  }

  async updateSettings(accountId: number, body: V1AccountUpdateSettingsRequestBody): Promise<void> {
    // Judged whole before it counts or writes anything.
    this.checkLanguage(body.language);
    const change: SettingsChange = {
      hidden: body.hidden,
      language: body.language,
      vanity: normalizedVanity(body.vanity),
      ...(body.email !== undefined ? { email: body.email ? body.email.trim() : null } : {}),
      ...(body.countryOverride !== undefined
        ? { country: body.countryOverride === null ? null : await this.country(body.countryOverride) }
        : {}),
    };
    await this.throttle.take(this.changes, accountId);
    await this.apply(accountId, change);
  }

  async updateVanity(accountId: number, vanity: string | null | undefined): Promise<void> {
    await this.throttle.take(this.changes, accountId);
    await this.apply(accountId, { vanity: normalizedVanity(vanity) });
  }

  /**
   * `account.updateRole`: the role the account shows (`chosenRole`), one it holds, or null for the default. Read on
   * each `account.getSettings`; no process keeps a copy, so no feed entry.
   */
  async updateChosenRole(accountId: number, role: string | null): Promise<void> {
    // Judged before it counts: a role the account does not hold is a 422 that costs nothing.
    if (role !== null) {
      const held: unknown[] = await this.dataSource.query('SELECT 1 FROM account_roles WHERE account_id = $1 AND role = $2', [
        accountId,
        role,
      ]);
      if (!held.length)
        throw unprocessable(`This account does not hold the role ${role}.`, [{ location: 'body.role', message: 'not held', value: role }]);
    }
    await this.throttle.take(this.changes, accountId);
    // A role revoked in between is harmless: chosenRoleOf shows a chosen role only while the account holds it.
    await this.dataSource.query('UPDATE account_settings SET chosen_role = $2 WHERE account_id = $1', [accountId, role]);
  }

  private async apply(accountId: number, change: SettingsChange): Promise<void> {
    const effects = await this.dataSource
      .transaction(async (manager) => {
        const effects = await this.write(manager, accountId, change);
        if (changed(effects)) await this.feed.record(manager, { kind: 'settings', accountIds: [accountId], payload: { ...effects } });
        return effects;
      })
      .catch((error: unknown) => {
        // Two accounts taking the same vanity at once: the unique index decides, the loser is told as a lookup would.
        if ((error as { code?: string }).code === SQLSTATE_UNIQUE_VIOLATION) throw vanityTaken();
        throw error;
      });
    await this.publish(accountId, effects);
  }

  private async write(manager: EntityManager, accountId: number, change: SettingsChange): Promise<Effects> {
    const rows = await this.lock(manager, accountId);
    const { account, settings } = rows;
    const effects: Effects = { vanity: false, location: false, hidden: false };
    const needsSettings =
      change.hidden !== undefined || change.language !== undefined || change.email !== undefined || change.country !== undefined;
    if (needsSettings && !settings) throw notFound('This account has no settings yet: sign in with `account.login` first.');

    if (change.vanity !== undefined && change.vanity !== account.siteVanity) {
      if (change.vanity !== null) await this.assertVanityFree(manager, accountId, change.vanity);
      await manager.query('UPDATE accounts SET site_vanity = $2 WHERE account_id = $1', [accountId, change.vanity]);
      await recordHistory(manager, accountId, { siteVanity: account.siteVanity }, { siteVanity: change.vanity });
      effects.vanity = true;
    }
    if (!settings) return effects;

    const location = this.locationChange(rows, change);
    if (location) {
      await manager.update(AccountEntity, { accountId }, location.account);
      effects.location = locationsDiffer(locationOf(account), location.account);
      await recordHistory(manager, accountId, { location: account }, { location: location.account });
    }
    const email = change.email === undefined ? settings.email : (change.email ?? '');
    await manager.query(
      `UPDATE account_settings SET
         hidden = COALESCE($2, hidden),
         language = COALESCE($3, language),
         email = $4,
         -- A changed address is not verified, whoever verified the old one.
         email_verified_at = CASE WHEN lower(email) = lower($4) THEN email_verified_at ELSE NULL END,
         country_override_code = CASE WHEN $5 THEN $6 ELSE country_override_code END,
         country_override_name = CASE WHEN $5 THEN $7 ELSE country_override_name END,
         platform_location = CASE WHEN $5 THEN $8::jsonb ELSE platform_location END
       WHERE account_id = $1`,
      [
        accountId,
        change.hidden ?? null,
        change.language ?? null,
        email,
        location !== null,
        location?.override?.code ?? null,
        location?.override?.name ?? null,
        location?.platform ? JSON.stringify(location.platform) : null,
      ],
    );
    effects.hidden = change.hidden !== undefined && change.hidden !== settings.hidden;
    return effects;
  }

  /**
   * The account row's new location and the settings' override columns, or null when the override does not change:
   * setting one keeps the platform's location aside (the one already kept, when an override stands); clearing one
   * puts the kept location back (account-records/location/account-location.ts).
   */
  private locationChange(
    { account, settings }: LockedRows,
    change: SettingsChange,
  ): { account: StoredLocation; override: { code: string; name: string } | null; platform: StoredLocation | null } | null {
    if (change.country === undefined || !settings) return null;
    if (change.country === null) {
      if (!settings.countryOverrideCode) return null;
      return { account: settings.platformLocation ?? locationOf(account), override: null, platform: null };
    }
    const platform = settings.countryOverrideCode ? (settings.platformLocation ?? locationOf(account)) : locationOf(account);
    return { account: overriddenLocation(change.country.code, change.country.name), override: change.country, platform };
  }

  /** Locks the account row, then its settings row: the order of the refresh writer (AccountWriter). */
  private async lock(manager: EntityManager, accountId: number): Promise<LockedRows> {
    const [account]: LockedRows['account'][] = await manager.query(
      `SELECT site_vanity AS "siteVanity", country_code AS "countryCode", country_name AS "countryName", state_code AS "stateCode",
              state_name AS "stateName", city_id AS "cityId", city_name AS "cityName", region
         FROM accounts WHERE account_id = $1 FOR UPDATE`,
      [accountId],
    );
    if (!account) throw notFound('The account of this session is not tracked by this service.');
    const [settings]: NonNullable<LockedRows['settings']>[] = await manager.query(
      `SELECT email, hidden, country_override_code AS "countryOverrideCode", platform_location AS "platformLocation"
         FROM account_settings WHERE account_id = $1 FOR UPDATE`,
      [accountId],
    );
    return { account, settings: settings ?? null };
  }

  private async assertVanityFree(manager: EntityManager, accountId: number, vanity: string): Promise<void> {
    const [holder]: unknown[] = await manager.query('SELECT 1 FROM accounts WHERE site_vanity = $1 AND account_id <> $2', [
      vanity,
      accountId,
    ]);
    if (holder) throw vanityTaken();
  }

  /** A language tag's codes must be known ones (the DTO checked its shape). */
  private checkLanguage(language: string): void {
    const [primary, region] = language.split('-');
    if (isLanguageCode(primary) && (region === undefined || countryNameOf(region) !== null)) return;
    throw unprocessable('Unknown language.', [
      { location: 'body.language', message: 'must be a known ISO 639-1 code, optionally with a known ISO 3166-1 region', value: language },
    ]);
  }

  /**
   * The country a user named, by ISO code or English name, with the name the platform's location list gives it (the
   * name the country's boards are keyed by, shared with the accounts the platform places there); the package's name
   * when the platform's list is out of reach or lacks the code.
   */
  private async country(input: string): Promise<{ code: string; name: string }> {
    const platformNames = await this.locationNames.countryList().catch((error: unknown) => {
      this.logger.warn({
        msg: "the platform's country list is out of reach; naming the override by the package's table",
        error: String(error),
      });
      return new Map<string, string>();
    });
    const wanted = input.trim().toLowerCase();
    const code = [...platformNames].find(([, name]) => name.toLowerCase() === wanted)?.[0] ?? countryCodeOf(input);
    const name = code ? (platformNames.get(code) ?? countryNameOf(code)) : null;
    if (!code || !name) {
      throw unprocessable('Unknown country.', [
        { location: 'body.countryOverride', message: 'must be a country name or an ISO 3166-1 alpha-2 code', value: input },
      ]);
    }
    return { code, name };
  }

  /** Makes a committed change visible where it is read (see the class comment). */
  private async publish(accountId: number, effects: Effects): Promise<void> {
    if (changed(effects)) await this.feed.nudge([accountId]);
    const steps: [string, () => Promise<unknown>][] = [];
    if (effects.location) {
      steps.push(['ranks', () => this.ranks.place([accountId])]);
      steps.push(['lazy boards', async () => this.lazyBoards.place(accountId, await this.lazyBoards.held(accountId))]);
    }
    if (effects.hidden) steps.push(['changes', () => this.boardChanges.place([accountId])]);
    for (const [what, step] of steps) {
      await step().catch((error: unknown) =>
        this.logger.warn({ msg: 'a settings change is not placed yet', what, accountId, error: String(error) }),
      );
    }
  }
}

const changed = (effects: Effects) => effects.vanity || effects.location || effects.hidden;

/** A vanity as stored: lower-case, or null for none ('' and null both mean none). */
function normalizedVanity(vanity: string | null | undefined): string | null {
  return vanity ? vanity.toLowerCase() : null;
}

function vanityTaken(): ProblemException {
  return new ProblemException(409, 'Another account has this vanity (vanities are compared without regard to case).', {
    title: 'Vanity taken',
  });
}
