import { Badge } from '../platform/client/platform.types';
import { BadgeDefinition, badgeDefinition } from '../refresh/snapshot-rows';

/** The latest sighting of a badge definition: its scarcity is the one the last refresh naming it wrote. */
export interface BadgeSighting {
  definition: BadgeDefinition;
  badgeId: number;
  at: number;
  accountId: number;
}

/** What the refreshes wrote to an app's row: it exists from its first sighting; name and icon are the latest non-empty. */
export interface AppSighting {
  name: string;
  nameAt: number;
  icon: string;
  iconAt: number;
}

/** What a generating thread observed of the catalogue, in a cloneable form for postMessage. */
export interface CatalogueMessage {
  badges: [number, BadgeSighting][];
  apps: [number, AppSighting][];
}

/**
 * The shared catalogue (badge definitions, apps) as the writer's upserts would leave it after every seeded run,
 * whatever order the runs were written in: the writer's upserts only ever keep the latest scarcity and the latest
 * non-empty name and icon, so keeping the latest sighting per key (by time, then account id) gives the same rows.
 */
export class CatalogueObservations {
  /** By badge id (the seed numbers badges up front, one id per badge key). */
  readonly badges = new Map<number, BadgeSighting>();
  readonly apps = new Map<number, AppSighting>();

  /**
   * The badges one run read, at `at`. Of two badges with one key the later one counts (badgeDefinitions), so a badge
   * replaces a sighting of the same run. A definition is built only for a sighting that wins, rarely after the first
   * accounts of a chunk: the runs' times are spread over months.
   */
  noteBadges(badges: Badge[], badgeIdOf: (badge: Badge) => number, at: number, accountId: number): void {
    for (const badge of badges) {
      const badgeId = badgeIdOf(badge);
      const known = this.badges.get(badgeId);
      if (!known || at > known.at || (at === known.at && accountId >= known.accountId))
        this.badges.set(badgeId, { definition: badgeDefinition(badge), badgeId, at, accountId });
    }
  }

  noteApps(apps: Map<number, { name: string; icon: string }>, at: number): void {
    for (const [appId, app] of apps)
      this.noteApp(appId, { name: app.name, nameAt: app.name ? at : -1, icon: app.icon, iconAt: app.icon ? at : -1 });
  }

  /** Adds another thread's observations. */
  merge(other: CatalogueMessage): void {
    for (const [, sighting] of other.badges) this.noteBadge(sighting);
    for (const [appId, sighting] of other.apps) this.noteApp(appId, sighting);
  }

  /** A plain, cloneable form for postMessage. */
  toMessage(): CatalogueMessage {
    return { badges: [...this.badges], apps: [...this.apps] };
  }

  private noteBadge(sighting: BadgeSighting): void {
    const known = this.badges.get(sighting.badgeId);
    if (!known || sighting.at > known.at || (sighting.at === known.at && sighting.accountId > known.accountId))
      this.badges.set(sighting.badgeId, sighting);
  }

  private noteApp(appId: number, sighting: AppSighting): void {
    const known = this.apps.get(appId);
    if (!known) return void this.apps.set(appId, { ...sighting });
    if (sighting.nameAt > known.nameAt) Object.assign(known, { name: sighting.name, nameAt: sighting.nameAt });
    if (sighting.iconAt > known.iconAt) Object.assign(known, { icon: sighting.icon, iconAt: sighting.iconAt });
  }
}
