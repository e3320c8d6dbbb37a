import { ADJECTIVES, NOUNS, SUFFIXES } from './words';
import { Salt, hash, hex40, intIn, logUniformInt, pick } from '../random';

/** One game of the synthetic store, with its trading-card set. */
export interface CatalogueApp {
  /** Position in the catalogue (0-based); accounts address apps by index through their own permutation. */
  index: number;
  appId: number;
  name: string;
  iconHash: string;
  /** Free-to-play games are hidden from GetOwnedGames unless include_played_free_games=1 and played. */
  free: boolean;
  /** Card names; a full set (normal or foil) has cards.length cards, 5..15. */
  cards: string[];
  /** Rough number of owners; drives badge scarcity and market volume. */
  popularity: number;
}

/**
 * A prime catalogue size lets every account use an affine permutation (start + i*step) mod size as its personal
 * order of apps (buy order, craft order) with any step in 1..size-1, at O(1) cost and with no per-account memory.
 */
export const CATALOGUE_SIZE = 397;

export class Catalogue {
  readonly apps: CatalogueApp[] = [];
  private readonly byAppId = new Map<number, CatalogueApp>();
  private readonly cardIndex = new Map<number, Map<string, number>>();

  constructor(private readonly seed: number) {
    let appId = 0;
    for (let i = 0; i < CATALOGUE_SIZE; i++) {
      // Realistic-looking ids: increasing multiples of 10 with irregular gaps.
      appId += 10 * intIn(hash(seed, Salt.catalogue, i, 1), 1, 600);
      const name = `${pick(ADJECTIVES, hash(seed, Salt.catalogue, i, 2))} ${pick(NOUNS, hash(seed, Salt.catalogue, i, 3))}${pick(SUFFIXES, hash(seed, Salt.catalogue, i, 4))}`;
      const app: CatalogueApp = {
        index: i,
        appId,
        name,
        iconHash: hex40(seed, Salt.catalogue, i, 5),
        free: hash(seed, Salt.catalogue, i, 6) % 10 === 0,
        cards: this.cardNames(i, intIn(hash(seed, Salt.catalogue, i, 7), 5, 15)),
        popularity: logUniformInt(hash(seed, Salt.catalogue, i, 8), 2_000, 3_000_000),
      };
      this.apps.push(app);
      this.byAppId.set(appId, app);
    }
  }

  byId(appId: number): CatalogueApp | undefined {
    return this.byAppId.get(appId);
  }

  /** Card index by name within an app (-1 if none), for parsing market hash names. */
  cardIndexOf(app: CatalogueApp, cardName: string): number {
    let index = this.cardIndex.get(app.index);
    if (!index) {
      index = new Map(app.cards.map((c, i) => [c, i]));
      this.cardIndex.set(app.index, index);
    }
    return index.get(cardName) ?? -1;
  }

  /** Card names unique within the app ("Crimson Raven"); collisions are re-drawn with a counter. */
  private cardNames(appIndex: number, count: number): string[] {
    const names = new Set<string>();
    for (let attempt = 0; names.size < count; attempt++) {
      const h1 = hash(this.seed, Salt.cards, appIndex, attempt, 1);
      const h2 = hash(this.seed, Salt.cards, appIndex, attempt, 2);
      names.add(`${pick(ADJECTIVES, h1)} ${pick(NOUNS, h2)}`);
    }
    return [...names];
  }
}
