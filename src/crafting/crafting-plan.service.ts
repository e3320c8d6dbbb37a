import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccountLookupService } from '../account-records/account-lookup.service';
import { forbidden, ProblemException } from '../common/problem/problem.exception';
import { CardQuoteBook } from './card-quote-book';
import { DEFAULT_XP_PER_LEVEL, PlanApp, planBadge, sortPlan } from './crafting-plan';
import {
  BADGE_TYPES,
  PLAN_PAGE_SIZE,
  V1AccountGetCraftingPlanRequestBody,
  V1AccountGetCraftingPlanResponseBody,
  V1CraftingBadge,
} from './dto/crafting-plan.dto';

/**
 * The apps whose badges the account can level, with their sets, levels and xp, in one statement: the apps of its
 * library, of the cards its inventory holds and of its game badges (each a range of the account's own rows, by the
 * primary keys and ix_account_badges_account_levels), joined to their sets (`app_card_counts`, by key) and badges
 * (ix_badges_app_id). `card_names` null: the set was never read (counted apart, not planned).
 */
const APPS_SQL = `
  WITH levels AS (
    SELECT b.app_id, max(ab.level) FILTER (WHERE NOT b.is_foil) AS normal_level, max(ab.level) FILTER (WHERE b.is_foil) AS foil_level
      FROM account_badges ab JOIN badges b ON b.id = ab.badge_id
     WHERE ab.account_id = $1 AND b.app_id IS NOT NULL
     GROUP BY b.app_id),
  mine AS (
    SELECT app_id FROM account_apps WHERE account_id = $1
    UNION SELECT app_id FROM inventory_items WHERE account_id = $1 AND app_id IS NOT NULL AND kind IN ('card', 'foil_card')
    UNION SELECT app_id FROM levels)
  SELECT m.app_id, COALESCE(a.name, '') AS app_name, k.card_names,
         COALESCE(l.normal_level, 0) AS normal_level, COALESCE(l.foil_level, 0) AS foil_level,
         (SELECT max(b.base_xp) FROM badges b WHERE b.app_id = m.app_id AND NOT b.is_foil) AS normal_xp,
         (SELECT max(b.base_xp) FROM badges b WHERE b.app_id = m.app_id AND b.is_foil) AS foil_xp
    FROM mine m
    LEFT JOIN levels l ON l.app_id = m.app_id
    LEFT JOIN app_card_counts k ON k.app_id = m.app_id
    LEFT JOIN apps a ON a.app_id = m.app_id
   WHERE cardinality(k.card_names) > 0 OR (k.card_names IS NULL AND COALESCE(k.cards, k.classes, 0) > 0)`;

interface AppRow {
  app_id: number;
  app_name: string;
  card_names: string[] | null;
  normal_level: number;
  foil_level: number;
  normal_xp: number | null;
  foil_xp: number | null;
}

/**
 * # The crafting planner (`account.getCraftingPlan`)
 *
 * For each badge an account can level — the normal and foil badges of the apps of its library, of the cards it holds
 * and of the game badges it has, below their highest level (5 normal, 1 foil) — every card of the app's set
 * (`app_card_counts.card_names`, the platform's list; foil cards are the same names with " (Foil)") held, with its
 * copies, or missing; the levels the cards held make now; and what the missing cards cost, each at its own lowest
 * sell listing (`card_market_prices`, the pricing job's quotes, held in process by CardQuoteBook), not at the set's
 * average. Work is one account's rows: two statements, each a range of the account's keys or key look-ups of its
 * apps, whatever the population; the plan is built, sorted and paged in memory (an account holds at most a few thousand apps). A private profile or
 * inventory is refused (403): the cards kept from before it turned private would plan from a stale inventory.
 */
@Injectable()
export class CraftingPlanService {
  constructor(
    private readonly lookup: AccountLookupService,
    private readonly quoteBook: CardQuoteBook,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async plan(request: V1AccountGetCraftingPlanRequestBody): Promise<V1AccountGetCraftingPlanResponseBody> {
    const account = await this.lookup.findTracked(request);
    const { accountId } = account;
    if (account.privacy === 'private')
      throw forbidden(`The profile of account ${accountId} is private: its inventory cannot be read, so no plan can be made.`);
    if (account.inventoryPrivacy === 'private')
      throw forbidden(`The inventory of account ${accountId} is private: no plan can be made from the cards it holds.`);
    if (!account.updatedAt)
      throw new ProblemException(409, `Account ${accountId} was not refreshed yet: queue an update (account.queueUpdate), then ask again.`);

    const rows: AppRow[] = await this.dataSource.query(APPS_SQL, [accountId]);
    const known = rows.filter((row) => row.card_names?.length);
    const [heldRows, quotes] = await Promise.all([
      this.dataSource.query(
        `SELECT market_hash_name, amount FROM inventory_items
          WHERE account_id = $1 AND app_id IS NOT NULL AND kind IN ('card', 'foil_card')`,
        [accountId],
      ) as Promise<{ market_hash_name: string; amount: number }[]>,
      this.quoteBook.current(),
    ]);
    const held = new Map<string, number>();
    for (const row of heldRows) held.set(row.market_hash_name, (held.get(row.market_hash_name) ?? 0) + row.amount);

    const all: V1CraftingBadge[] = [];
    for (const row of known) {
      const app: PlanApp = {
        appId: row.app_id,
        appName: row.app_name,
        cardNames: row.card_names!,
        level: { normal: row.normal_level, foil: row.foil_level },
        xpPerLevel: { normal: row.normal_xp ?? DEFAULT_XP_PER_LEVEL, foil: row.foil_xp ?? DEFAULT_XP_PER_LEVEL },
      };
      for (const type of BADGE_TYPES) {
        const badge = planBadge(app, type, { held, quotes });
        if (badge) all.push(badge);
      }
    }

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
    const quoted = all.flatMap((badge) => (badge.pricesUpdatedAt === null ? [] : [badge.pricesUpdatedAt]));
    const sum = (values: (number | null)[]) => values.reduce<number>((total, value) => total + (value ?? 0), 0);
    return {
      badges: matching.slice((page - 1) * limit, page * limit),
      totals: {
        badges: all.length,
        levelsCraftableNow: sum(all.map((badge) => badge.levelsCraftableNow)),
        xpCraftableNow: sum(all.map((badge) => badge.levelsCraftableNow * badge.xpPerLevel)),
        cost: sum(all.map((badge) => badge.cost)),
        costToMaxLevel: sum(all.map((badge) => badge.costToMaxLevel)),
        unpricedBadges: all.filter((badge) => badge.cost === null || badge.costToMaxLevel === null).length,
        unknownSets: rows.length - known.length,
      },
      page,
      pages: Math.ceil(matching.length / limit),
      totalHits: matching.length,
      pricesUpdatedAt: quoted.length ? quoted.reduce((a, b) => Math.min(a, b)) : null,
      inventoryUpdatedAt: account.updatedAt.getTime(),
    };
  }
}
