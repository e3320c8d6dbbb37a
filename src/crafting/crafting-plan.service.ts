import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccountLookupService, AccountSelector, notTracked } from '../account-records/account-lookup.service';
import { forbidden, ProblemException } from '../common/problem/problem.exception';
import { CardQuoteBook } from './card-quote-book';
import { AccountEntity } from '../account-records/entities/account.entity';
import { CardSetBook } from './card-set-book';
import { PlanInputs, sortPlan } from './crafting-plan';
import { badgeFigures, BadgeFigures, withCards } from './plan-figures';
import {
  BADGE_TYPES,
  CraftingBadgeType,
  PLAN_PAGE_SIZE,
  V1AccountGetCraftingPlanRequestBody,
  V1AccountGetCraftingPlanResponseBody,
  V1CraftingBadge,
} from './dto/crafting-plan.dto';

/**
 * The account's plannability and its own rows, in one statement and one round trip by primary key: whether it can be
 * planned (privacy, inventory privacy, refreshed), then — only then, CASE evaluates lazily — the apps of its library,
 * its game badges' levels by app (each a range of the account's keys: the primary keys and
 * ix_account_badges_account_levels, then each badge by its key: OFFSET 0 keeps the planner from hashing the whole
 * catalogue of badges per plan, which it chose for a join, estimating hundreds of badges per account) and the cards its inventory holds (with their apps: an app of the
 * cards held is planned too). Sets, names and xp come from CardSetBook, quotes from CardQuoteBook: nothing
 * catalogue-sized is read per plan.
 */
const PLANNABLE = `a.privacy <> 'private' AND a.inventory_privacy <> 'private' AND a.updated_at IS NOT NULL`;
const ACCOUNT_SQL = `
  SELECT a.account_id AS "accountId", a.privacy, a.inventory_privacy AS "inventoryPrivacy", a.updated_at AS "updatedAt",
    CASE WHEN ${PLANNABLE} THEN (SELECT json_agg(app_id) FROM account_apps WHERE account_id = a.account_id) END AS apps,
    CASE WHEN ${PLANNABLE} THEN (SELECT json_agg(json_build_array(l.app_id, l.normal_level, l.foil_level)) FROM (
       SELECT b.app_id, max(ab.level) FILTER (WHERE NOT b.is_foil) AS normal_level, max(ab.level) FILTER (WHERE b.is_foil) AS foil_level
         FROM account_badges ab CROSS JOIN LATERAL (SELECT app_id, is_foil FROM badges WHERE id = ab.badge_id OFFSET 0) b
        WHERE ab.account_id = a.account_id AND b.app_id IS NOT NULL
        GROUP BY b.app_id) l) END AS levels,
    CASE WHEN ${PLANNABLE} THEN (SELECT json_agg(json_build_array(app_id, market_hash_name, amount)) FROM inventory_items
      WHERE account_id = a.account_id AND app_id IS NOT NULL AND kind IN ('card', 'foil_card')) END AS held
  FROM accounts a WHERE a.account_id = $1`;

interface AccountRow {
  accountId: number;
  privacy: AccountEntity['privacy'];
  inventoryPrivacy: AccountEntity['inventoryPrivacy'];
  updatedAt: Date | null;
  apps: number[] | null;
  levels: [number, number | null, number | null][] | null;
  held: [number, string, number][] | null;
}

/** Every badge of an account's plan as figures (no cards), and what building a badge's cards needs. */
interface PlanFigures {
  all: BadgeFigures[];
  unknownSets: number;
  inputs: PlanInputs;
}

/**
 * # The crafting planner (`account.getCraftingPlan`)
 *
 * For each badge an account can level — the normal and foil badges of the apps of its library, of the cards it holds
 * and of the game badges it has, below their highest level (5 normal, 1 foil) — every card of the app's set
 * (`app_card_counts.card_names`, the platform's list; foil cards are the same names with " (Foil)") held, with its
 * copies, or missing; the levels the cards held make now; and what the missing cards cost, each at its own lowest
 * sell listing (`card_market_prices`, the pricing job's quotes, held in process by CardQuoteBook), not at the set's
 * average. Work is one account's rows: one statement of three ranges of the account's keys, whatever the population;
 * the sets come from CardSetBook, the quotes from CardQuoteBook (both in step with the change feed: ~1 s behind). Every badge's figures are computed
 * for sorting, filters and totals without building its cards; the cards are built for the page's badges only (as
 * `planBadge`, the reference, builds them: the unit spec compares the two). A private profile or inventory is refused
 * (403): the cards kept from before it turned private would plan from a stale inventory.
 */
const NO_LEVELS: Record<CraftingBadgeType, number> = { normal: 0, foil: 0 };

@Injectable()
export class CraftingPlanService {
  constructor(
    private readonly lookup: AccountLookupService,
    private readonly quoteBook: CardQuoteBook,
    private readonly sets: CardSetBook,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async plan(request: V1AccountGetCraftingPlanRequestBody): Promise<V1AccountGetCraftingPlanResponseBody> {
    const row = await this.plannable(request);
    const { all, unknownSets, inputs } = await this.figures(row);

    const filters = request.filters ?? {};
    const matching = all.filter(
      (badge) =>
        (filters.appId === undefined || badge.appId === filters.appId) &&
        (filters.badgeType === undefined || badge.badgeType === filters.badgeType) &&
        (filters.craftableNow === undefined || badge.levelsCraftableNow > 0 === filters.craftableNow) &&
        (filters.maxCost === undefined || (badge.cost !== null && badge.cost <= filters.maxCost)),
    );
    sortPlan(matching, request.order?.by ?? 'costPerXp', request.order?.direction ?? 'asc');
    const limit = request.limit ?? PLAN_PAGE_SIZE;
    const page = request.page ?? 1;
    let levelsCraftableNow = 0;
    let xpCraftableNow = 0;
    let cost = 0;
    let costToMaxLevel = 0;
    let unpricedBadges = 0;
    let pricesUpdatedAt: number | null = null;
    for (const badge of all) {
      levelsCraftableNow += badge.levelsCraftableNow;
      xpCraftableNow += badge.levelsCraftableNow * badge.xpPerLevel;
      cost += badge.cost ?? 0;
      costToMaxLevel += badge.costToMaxLevel ?? 0;
      if (badge.cost === null || badge.costToMaxLevel === null) unpricedBadges++;
      if (badge.pricesUpdatedAt !== null && (pricesUpdatedAt === null || badge.pricesUpdatedAt < pricesUpdatedAt))
        pricesUpdatedAt = badge.pricesUpdatedAt;
    }
    return {
      badges: matching.slice((page - 1) * limit, page * limit).map((badge) => this.build(badge, inputs)),
      totals: { badges: all.length, levelsCraftableNow, xpCraftableNow, cost, costToMaxLevel, unpricedBadges, unknownSets },
      page,
      pages: Math.ceil(matching.length / limit),
      totalHits: matching.length,
      pricesUpdatedAt,
      inventoryUpdatedAt: row.updatedAt!.getTime(),
    };
  }

  /**
   * Every badge of the account's plan, cards and all, by app id (the normal badge before the foil one): the
   * `craftingPlan` section of `account.export`. Refused as `plan` refuses (403, 409).
   */
  async allBadges(selector: AccountSelector): Promise<V1CraftingBadge[]> {
    const { all, inputs } = await this.figures(await this.plannable(selector));
    sortPlan(all, 'appId', 'asc');
    return all.map((badge) => this.build(badge, inputs));
  }

  /**
   * The account's row, unless its plan is refused: a private profile or inventory (403), never refreshed (409). An
   * account named by id is read in the one statement; a vanity (or an id of no stored account: the look-up's 404) goes
   * through the look-up first.
   */
  private async plannable(selector: AccountSelector): Promise<AccountRow> {
    const namedId = this.lookup.namedId(selector);
    let row = namedId === null ? undefined : await this.accountRow(namedId);
    if (!row) row = await this.accountRow((await this.lookup.findTracked(selector)).accountId);
    if (!row) throw notTracked();
    const { accountId } = row;
    if (row.privacy === 'private')
      throw forbidden(`The profile of account ${accountId} is private: its inventory cannot be read, so no plan can be made.`);
    if (row.inventoryPrivacy === 'private')
      throw forbidden(`The inventory of account ${accountId} is private: no plan can be made from the cards it holds.`);
    if (!row.updatedAt)
      throw new ProblemException(409, `Account ${accountId} was not refreshed yet: queue an update (account.queueUpdate), then ask again.`);
    return row;
  }

  private async accountRow(accountId: number): Promise<AccountRow | undefined> {
    const [row] = (await this.dataSource.query(ACCOUNT_SQL, [accountId])) as AccountRow[];
    return row;
  }

  private async figures(row: AccountRow): Promise<PlanFigures> {
    const [sets, quotes] = await Promise.all([this.sets.current(), this.quoteBook.current()]);
    const held = new Map<string, number>();
    const appIds = new Set<number>(row.apps ?? []);
    for (const [appId, name, amount] of row.held ?? []) {
      held.set(name, (held.get(name) ?? 0) + amount);
      appIds.add(appId);
    }
    const levels = new Map<number, Record<CraftingBadgeType, number>>();
    for (const [appId, normal, foil] of row.levels ?? []) {
      levels.set(appId, { normal: normal ?? 0, foil: foil ?? 0 });
      appIds.add(appId);
    }
    const all: BadgeFigures[] = [];
    let unknownSets = 0;
    for (const appId of appIds) {
      const set = sets.get(appId);
      if (!set) continue;
      if (!set.cardNames?.length) {
        unknownSets++;
        continue;
      }
      const appLevels = levels.get(appId) ?? NO_LEVELS;
      for (const type of BADGE_TYPES) {
        const badge = badgeFigures(set, appLevels, type, held, quotes);
        if (badge) all.push(badge);
      }
    }
    return { all, unknownSets, inputs: { held, quotes } };
  }

  /** A badge with its cards: what the reference `planBadge` gives (the unit spec checks it, field for field). */
  private build(badge: BadgeFigures, inputs: PlanInputs): V1CraftingBadge {
    return withCards(badge, inputs.held, inputs.quotes);
  }
}
