import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { JsonLogger } from '../common/logging/json-logger';
import { PlatformClient } from '../platform/client/platform-client';
import { PlatformHttpError } from '../platform/client/platform.errors';
import { steamId64Of } from '../platform/client/account-ids';
import type { HeldBadgeArt } from '../platform/client/badge-page';

/** A badge's name and image are read again this long after they were last read (a holder of a lower level may show). */
export const BADGE_ART_REFRESH_DAYS = 30;
/** Badges read per pricing cycle at most: one paced community call each (a few when holders turn out private). */
export const BADGE_ART_PER_CYCLE = 20;
/** Holders tried per badge: the stored privacy or holding may be stale; past these the badge waits for its next turn. */
const HOLDERS_TRIED = 3;

/**
 * The badges due: held by a tracked account (`badge_holder_stats`), never read or read longest ago. One pass over
 * the badges with holders, thousands of rows, once per cycle (like the card sets' walk).
 */
const DUE = `
  SELECT b.id, b.app_id, b.platform_badge_id, b.is_foil FROM badges b
    JOIN badge_holder_stats s ON s.badge_id = b.id AND s.holders > 0
   WHERE b.art_checked_at IS NULL OR b.art_checked_at < now() - make_interval(days => $1)
   ORDER BY b.art_checked_at NULLS FIRST, b.id
   LIMIT $2`;

/**
 * Public tracked holders of a badge at its lowest level held: ix_account_badges_badge_level gives them in level
 * order, so the read stops after a few index entries however many hold the badge.
 */
const HOLDERS = `
  SELECT ab.account_id FROM account_badges ab JOIN accounts a ON a.account_id = ab.account_id
   WHERE ab.badge_id = $1 AND a.privacy = 'public'
   ORDER BY ab.level
   LIMIT $2`;

const STORE = `UPDATE badges SET name = $2, image = $3, art_checked_at = now() WHERE id = $1`;
const CHECKED = `UPDATE badges SET art_checked_at = now() WHERE id = $1`;

interface DueBadge {
  id: number;
  app_id: number | null;
  platform_badge_id: number;
  is_foil: boolean;
}

/**
 * # Badge names and images from the platform
 *
 * The Web API's GetBadges gives ids, levels and xp, never a name or an image; the community site's badge pages do:
 * a profile's gamecards page of an app (`border=1`: the foil badge) or its page of a special badge shows the badge
 * the profile holds, its name and image at the level held (PlatformClient.getBadgePage). A badge's catalogue name and
 * image (`badges.name`, `badges.image`, shown by every wire record that carries a badge's name or image) are those of
 * the lowest level a public tracked holder holds (level 1 as soon as anyone tracked holds only that), read from that
 * holder's page. Read once per badge and again every BADGE_ART_REFRESH_DAYS, by the pricing worker, a bounded
 * number per cycle (BADGE_ART_PER_CYCLE), each call paced like the market's (MarketCallPace) and taking nothing from
 * the daily Web API budget. Until a badge was read, its name is derived from its app (badgeName) and its image is ''.
 */
@Injectable()
export class BadgeArt {
  private readonly logger = new JsonLogger('BadgeArt');

  constructor(
    private readonly platform: PlatformClient,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * Reads the due badges, at most `limit`; returns how many got a name and an image. A badge no tried holder shows
   * (private since, or no longer holding it) is marked read and waits its next turn; a page the platform refuses
   * (4xx) likewise. A platform that is away ends the batch (the caller's to report).
   */
  async refreshDue(limit = BADGE_ART_PER_CYCLE, signal?: AbortSignal): Promise<number> {
    const due: DueBadge[] = await this.dataSource.query(DUE, [BADGE_ART_REFRESH_DAYS, limit]);
    let read = 0;
    for (const badge of due) {
      if (signal?.aborted) break;
      const art = await this.read(badge, signal).catch((error: unknown) => {
        if (!(error instanceof PlatformHttpError)) throw error;
        this.logger.warn({ msg: 'badge page not read', badgeId: badge.id, error: error.message });
        return null;
      });
      if (art) read++;
      await this.dataSource.query(art ? STORE : CHECKED, art ? [badge.id, art.name, art.image] : [badge.id]);
    }
    return read;
  }

  /** The badge's art from the first of its lowest-level public holders whose page shows it. */
  private async read(badge: DueBadge, signal?: AbortSignal): Promise<HeldBadgeArt | null> {
    const holders: { account_id: number }[] = await this.dataSource.query(HOLDERS, [badge.id, HOLDERS_TRIED]);
    const which = badge.app_id === null ? { badgeId: badge.platform_badge_id } : { appId: badge.app_id, foil: badge.is_foil };
    for (const { account_id: accountId } of holders) {
      const page = await this.platform.getBadgePage(steamId64Of(accountId), which, signal);
      if (page.visibility === 'public' && page.held) return page.held;
    }
    return null;
  }
}
