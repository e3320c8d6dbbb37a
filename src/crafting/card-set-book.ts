import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { foilNameOf } from '../pricing/app-pricer.service';
import { DEFAULT_XP_PER_LEVEL, quoteKey } from './crafting-plan';
import { CraftingBadgeType } from './dto/crafting-plan.dto';

/** How long a process plans from the sets it holds before it reads them again in the background (at most). */
const FRESH_MS = 60_000;

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
 * Every app's card set, name and xp per level (`app_card_counts`, `apps`, `badges`), held in process for the planner,
 * as CardQuoteBook holds the quotes. Catalogue-sized (a row per app with trading cards: ~35k on the platform), never
 * population-sized. Read per plan, the sets cost the planner a union over three sources, two correlated xp look-ups
 * per app and a `text[]` of names parsed per app per request. Loaded on the first plan (which waits for it), then read
 * whole again in the background when older than 60 s (a plan never waits for a refresh): a set, name or xp written
 * since is planned at most ~60 s late. Only apps a plan can use are held: a non-empty set, or an unread set
 * (`card_names` null) of an app known to have cards.
 */
@Injectable()
export class CardSetBook {
  private sets = new Map<number, CardSet>();
  private checkedAt = 0;
  private loading: Promise<void> | null = null;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The sets by app id, refreshed when older than FRESH_MS (the first call waits for the load; later ones do not). */
  async current(): Promise<Map<number, CardSet>> {
    if (Date.now() - this.checkedAt > FRESH_MS) {
      this.loading ??= this.refresh().finally(() => (this.loading = null));
      if (this.checkedAt === 0) await this.loading;
    }
    return this.sets;
  }

  private async refresh(): Promise<void> {
    const rows: SetRow[] = await this.dataSource.query(
      `SELECT k.app_id, COALESCE(a.name, '') AS app_name, k.card_names, x.normal_xp, x.foil_xp
         FROM app_card_counts k
         LEFT JOIN apps a ON a.app_id = k.app_id
         LEFT JOIN (SELECT app_id, max(base_xp) FILTER (WHERE NOT is_foil) AS normal_xp, max(base_xp) FILTER (WHERE is_foil) AS foil_xp
                      FROM badges WHERE app_id IS NOT NULL GROUP BY app_id) x ON x.app_id = k.app_id
        WHERE cardinality(k.card_names) > 0 OR (k.card_names IS NULL AND COALESCE(k.cards, k.classes, 0) > 0)`,
    );
    const sets = new Map<number, CardSet>();
    for (const row of rows) {
      const normal = row.card_names ?? [];
      const foil = normal.map(foilNameOf);
      sets.set(row.app_id, {
        appId: row.app_id,
        appName: row.app_name,
        cardNames: row.card_names,
        names: { normal, foil },
        keys: { normal: normal.map((name) => quoteKey('normal', name)), foil: foil.map((name) => quoteKey('foil', name)) },
        xpPerLevel: { normal: row.normal_xp ?? DEFAULT_XP_PER_LEVEL, foil: row.foil_xp ?? DEFAULT_XP_PER_LEVEL },
      });
    }
    // Swapped whole: a plan running meanwhile keeps the map it was given.
    this.sets = sets;
    this.checkedAt = Date.now();
  }
}
