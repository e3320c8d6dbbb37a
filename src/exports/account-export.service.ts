import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { AccountLookupService } from '../account-records/account-lookup.service';
import { AccountProfileService } from '../accounts/account-profile.service';
import { appBadgeText, HOLDING_INFO_TEXT } from '../apps/mappers/app-badge-text';
import { BadgeCatalogService } from '../badges/badge-catalog.service';
import { Principal } from '../common/auth/principal';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { JsonLogger } from '../common/logging/json-logger';
import { ProblemException, unprocessable } from '../common/problem/problem.exception';
import { CraftingPlanService } from '../crafting/crafting-plan.service';
import { V1CraftingBadge } from '../crafting/dto/crafting-plan.dto';
import { ACCOUNT_EXPORT_SECTIONS, AccountExportRequestBody, AccountExportSection } from './dto/exports.dto';
import { ExportLimits } from './export-limits';
import { ExportWriter } from './export-writer';

/** A badge as `account.listBadges` writes it (the badge, its statistics and the account's holding), as JSON text. */
const BADGE_ITEM_TEXT = appBadgeText(HOLDING_INFO_TEXT);

/** Writes one section's rows to the writer, batch by batch, until done or the client leaves. */
type SectionWriter = (accountId: number, emit: (rows: object[]) => Promise<void>, aborted: () => boolean) => Promise<void>;

/** The CSV table of the `craftingPlan` section: a badge per record, its cards flattened into one text cell. */
export const CRAFTING_PLAN_COLUMNS = [
  'appId',
  'appName',
  'badgeType',
  'level',
  'maxLevel',
  'xpPerLevel',
  'missingCards',
  'levelsCraftableNow',
  'cost',
  'costToMaxLevel',
  'costPerXp',
  'pricesUpdatedAt',
  'cards',
] as const;

/** A plan's badge as a CSV record: `cards` as `<held>x <market hash name> @<cents, ? when unpriced>`, joined by `; `. */
function craftingPlanRecord(badge: V1CraftingBadge): Record<(typeof CRAFTING_PLAN_COLUMNS)[number], unknown> {
  const { cards, ...figures } = badge;
  return { ...figures, cards: cards.map((card) => `${card.held}x ${card.marketHashName} @${card.lowestPrice ?? '?'}`).join('; ') };
}

/**
 * `account.export`: an account's data as the reads give it, one section after the other — `profile` (one row:
 * `account.getInfo`'s answer without `$schema`, no view counted), `badges` (`account.listBadges`' items), `apps`
 * (`account.listApps`' items) — each listing walked by keyset on the account's primary-key rows (badge id, app id),
 * a batch at a time — and `craftingPlan` (every badge of `account.getCraftingPlan`'s plan, by app id). Whose data:
 * the account named (any tracked one, as the reads allow) or, named by nothing, the caller's own. In NDJSON each line
 * is `{"section": …, "data": …}`; a CSV export is one section's table. A section is a function of the account id
 * (SECTIONS below). The plan is computed before the response starts (a plan is one account's rows and the in-process
 * books, bounded like the read): asked for by name, a refused plan (private profile or inventory 403, never
 * refreshed 409) is the read's problem document; with the sections defaulted it is left out.
 */
@Injectable()
export class AccountExportService {
  private readonly logger = new JsonLogger('AccountExport');
  private readonly batch: number;
  private readonly sections: Record<AccountExportSection, SectionWriter> = {
    profile: (accountId, emit) => this.profile(accountId, emit),
    badges: (accountId, emit, aborted) => this.badges(accountId, emit, aborted),
    apps: (accountId, emit, aborted) => this.apps(accountId, emit, aborted),
    // Computed before the stream starts (see export): by then only written.
    craftingPlan: async () => undefined,
  };

  constructor(
    private readonly lookup: AccountLookupService,
    private readonly profiles: AccountProfileService,
    private readonly catalog: BadgeCatalogService,
    private readonly plans: CraftingPlanService,
    private readonly limits: ExportLimits,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    // Rows per batch of a listing section (EXPORTS_BATCH, at most 500 here: an account holds a few thousand rows at most).
    this.batch = Math.min(config.exports.batch, 500);
  }

  async export(request: AccountExportRequestBody, principal: Principal, res: Response): Promise<void> {
    const format = request.format ?? 'ndjson';
    const asked = new Set(request.sections ?? ACCOUNT_EXPORT_SECTIONS);
    let sections = ACCOUNT_EXPORT_SECTIONS.filter((section) => asked.has(section));
    if (format === 'csv' && sections.length !== 1)
      throw unprocessable('A CSV export is one table: name exactly one section.', [
        { location: 'body.sections', message: 'one section with format csv', value: request.sections ?? null },
      ]);
    const named = Boolean(request.id || request.vanity);
    const { accountId } = await this.lookup.findTracked(named ? request : { id: { accountId: principal.accountId } });
    const plan = sections.includes('craftingPlan') ? await this.craftingPlan(accountId, request.sections !== undefined) : null;
    if (!plan) sections = sections.filter((section) => section !== 'craftingPlan');
    await this.limits.admit(principal, res);
    const writer = new ExportWriter(res, format, format === 'csv' && sections[0] === 'craftingPlan' ? CRAFTING_PLAN_COLUMNS : null);
    writer.start(`account-${accountId}${format === 'csv' ? `-${sections[0]}` : ''}`);
    try {
      for (const section of sections) {
        if (writer.aborted) break;
        const emit = (rows: object[]) => writer.write(format === 'csv' ? rows : rows.map((data) => ({ section, data })));
        if (section === 'craftingPlan') await this.writePlan(plan!, format === 'csv', emit, () => writer.aborted);
        else await this.sections[section](accountId, emit, () => writer.aborted);
      }
      this.limits.ended(writer.aborted);
      writer.end();
    } catch (error) {
      this.logger.error({ msg: 'account export failed', accountId, error: String(error), rows: writer.rows });
      writer.end(error);
    }
  }

  /** The plan's badges; null when refused and not asked for by name (a refusal asked for by name is thrown). */
  private async craftingPlan(accountId: number, named: boolean): Promise<V1CraftingBadge[] | null> {
    try {
      return await this.plans.allBadges({ id: { accountId } });
    } catch (error) {
      if (!named && error instanceof ProblemException && (error.getStatus() === 403 || error.getStatus() === 409)) return null;
      throw error;
    }
  }

  private async writePlan(
    badges: V1CraftingBadge[],
    csv: boolean,
    emit: (rows: object[]) => Promise<void>,
    aborted: () => boolean,
  ): Promise<void> {
    for (let i = 0; i < badges.length && !aborted(); i += this.batch) {
      const batch = badges.slice(i, i + this.batch);
      await emit(csv ? batch.map(craftingPlanRecord) : batch);
    }
  }

  private async profile(accountId: number, emit: (rows: object[]) => Promise<void>): Promise<void> {
    const answer = await this.profiles.getInfo({ id: { accountId } });
    const { $schema: _schema, ...profile } = JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>;
    await emit([profile]);
  }

  private async badges(accountId: number, emit: (rows: object[]) => Promise<void>, aborted: () => boolean): Promise<void> {
    let after = -1;
    while (!aborted()) {
      const found = await this.catalog.holdingsAsText<{ last: number | null }>(
        `SELECT ab.* FROM account_badges ab WHERE ab.account_id = $1 AND ab.badge_id > $2 ORDER BY ab.badge_id LIMIT $3`,
        BADGE_ITEM_TEXT,
        'max(ab.badge_id) AS last',
        'ab.badge_id',
        [accountId, after, this.batch],
      );
      const rows = JSON.parse(found.text) as object[];
      await emit(rows);
      if (rows.length < this.batch || found.last === null) return;
      after = found.last;
    }
  }

  private async apps(accountId: number, emit: (rows: object[]) => Promise<void>, aborted: () => boolean): Promise<void> {
    let after = -1;
    while (!aborted()) {
      // `account.listApps`' row: the price is the app's normal card set at the market (the pricing job's).
      const rows: { app_id: number; name: string; icon: string; playtime: number; price: number }[] = await this.dataSource.query(
        `SELECT aa.app_id, a.name, a.icon, aa.playtime, COALESCE(m.set_price, 0) AS price
           FROM account_apps aa JOIN apps a ON a.app_id = aa.app_id
           LEFT JOIN app_market_prices m ON m.app_id = aa.app_id AND m.badge_type = 'normal'
          WHERE aa.account_id = $1 AND aa.app_id > $2 ORDER BY aa.app_id LIMIT $3`,
        [accountId, after, this.batch],
      );
      await emit(rows.map((row) => ({ id: row.app_id, name: row.name, image: row.icon, playtime: row.playtime, price: row.price })));
      if (rows.length < this.batch) return;
      after = rows[rows.length - 1].app_id;
    }
  }
}
