import { Injectable } from '@nestjs/common';
import { appsOf, FeedEntry } from '../change-feed/change-entry';
import { foilNameOf } from '../pricing/app-pricer.service';
import { CatalogueBook } from './catalogue-book';
import { DEFAULT_XP_PER_LEVEL, quoteKey } from './crafting-plan';
import { CraftingBadgeType } from './dto/crafting-plan.dto';

/**
 * The sets of an app with trading cards whose set is known, per badge type: the cards' market hash names (foil names
 * end in " (Foil)") and their CardQuoteBook keys, computed once here rather than per card per plan.
 */
export interface CardSet {
  appId: number;
  appName: string;
  /** The platform's list (normal names, the set's order); null: the set was never read (counted apart, not planned). */
  cardNames: string[] | null;
  names: Record<CraftingBadgeType, string[]>;
  keys: Record<CraftingBadgeType, string[]>;
  xpPerLevel: Record<CraftingBadgeType, number>;
}

interface SetRow {
  app_id: number;
  app_name: string;
  card_names: string[] | null;
  normal_xp: number | null;
  foil_xp: number | null;
}

/**
 * The plannable sets of the apps `apps` selects (a condition on `app_id`): a non-empty set, or an unread set
 * (`card_names` null) of an app known to have cards. The badges' xp grouped per app of the same selection.
 */
const setsOf = (apps: string) => `
  SELECT k.app_id, COALESCE(a.name, '') AS app_name, k.card_names, x.normal_xp, x.foil_xp
    FROM app_card_counts k
    LEFT JOIN apps a ON a.app_id = k.app_id
    LEFT JOIN (SELECT app_id, max(base_xp) FILTER (WHERE NOT is_foil) AS normal_xp, max(base_xp) FILTER (WHERE is_foil) AS foil_xp
                 FROM badges WHERE app_id ${apps} GROUP BY app_id) x ON x.app_id = k.app_id
   WHERE k.app_id ${apps} AND (cardinality(k.card_names) > 0 OR (k.card_names IS NULL AND COALESCE(k.cards, k.classes, 0) > 0))`;
const ALL_SETS = setsOf('IS NOT NULL');
const APPS_SETS = setsOf('= ANY($1::int[])');

/**
 * Every app's card set, name and xp per level (`app_card_counts`, `apps`, `badges`), held in process for the planner,
 * as CardQuoteBook holds the quotes. Catalogue-sized (a row per app with trading cards: ~35k on the platform), never
 * population-sized. Read per plan, the sets cost the planner a union over three sources, two correlated xp look-ups
 * per app and a `text[]` of names parsed per app per request.
 *
 * A projection of the change feed (CatalogueBook): a `card-sets` entry names the apps whose set (AppCardSets), name
 * (the update writer's catalogue upsert) or plannability (AppCardClasses: the classes of an unread set crossing zero)
 * changed, in the writer's transaction, and the book reads those apps again; an entry naming none (a bulk rebuild, the
 * seed) has it read whole again. The badges' xp has no writer (`base_xp` keeps its default, DEFAULT_XP_PER_LEVEL): a
 * writer of it would record `card-sets` too.
 */
@Injectable()
export class CardSetBook extends CatalogueBook<Map<number, CardSet>> {
  readonly name = 'card-sets';
  private sets = new Map<number, CardSet>();

  async load(): Promise<void> {
    const sets = new Map<number, CardSet>();
    for (const row of (await this.dataSource.query(ALL_SETS)) as SetRow[]) sets.set(row.app_id, setOf(row));
    this.sets = sets;
  }

  async apply(entries: readonly FeedEntry[]): Promise<void> {
    const apps = appsOf(entries, 'card-sets');
    if (apps === 'all') return this.load();
    if (!apps) return;
    const rows: SetRow[] = await this.dataSource.query(APPS_SETS, [apps]);
    // An app no longer plannable (its set read empty) has no row: it goes.
    for (const appId of apps) this.sets.delete(appId);
    for (const row of rows) this.sets.set(row.app_id, setOf(row));
  }

  protected held(): Map<number, CardSet> {
    return this.sets;
  }

  protected drop(): void {
    this.sets = new Map();
  }
}

function setOf(row: SetRow): CardSet {
  const normal = row.card_names ?? [];
  const foil = normal.map(foilNameOf);
  return {
    appId: row.app_id,
    appName: row.app_name,
    cardNames: row.card_names,
    names: { normal, foil },
    keys: { normal: normal.map((name) => quoteKey('normal', name)), foil: foil.map((name) => quoteKey('foil', name)) },
    xpPerLevel: { normal: row.normal_xp ?? DEFAULT_XP_PER_LEVEL, foil: row.foil_xp ?? DEFAULT_XP_PER_LEVEL },
  };
}
