import { parse } from 'node-html-parser';

/** The badge a profile holds, as its badge page shows it: the name and image of the level it holds. */
export interface HeldBadgeArt {
  name: string;
  /** The image's file name (`<hash>.png`), as the wire's `badgeImage` carries it; the folder is the app's. */
  image: string;
  level: number;
}

/** A badge page read: a private profile shows nothing; a public one the badge it holds, or null when it holds none. */
export type BadgePage = { visibility: 'private' } | { visibility: 'public'; held: HeldBadgeArt | null; dropsRemaining: number | null };

/**
 * Reads a profile's badge page (`/profiles/{steamid}/gamecards/{appid}/`, `/profiles/{steamid}/badges/{badgeid}/`):
 * the `badge_current` block names the badge held, with its image (`badge_info_image img`), name
 * (`badge_info_title`, entities decoded) and level (`Level N, X XP`; a badge without levels is level 1). The page is
 * the site's full HTML, so a parser reads it (node-html-parser: no script runs, nothing is fetched), not patterns.
 * Returns null for anything that is not a badge page (an error page with HTTP 200), which the caller treats as the
 * platform being unavailable. A game's normal page of a game the profile owns also says its card drops left
 * (`badge_title_stats_drops`: "N card drops remaining", "No card drops remaining"): `dropsRemaining`, null when the
 * page does not say.
 */
export function parseBadgePage(html: string): BadgePage | null {
  const root = parse(html);
  if (root.querySelector('.profile_private_info')) return { visibility: 'private' };
  if (!root.querySelector('.badge_row, .badge_detail_tasks')) return null;
  const drops = root.querySelector('.badge_title_stats_drops')?.text ?? '';
  const dropsCount = /([\d,]+)\s+card drops? remaining/i.exec(drops)?.[1];
  const dropsRemaining = dropsCount ? Number(dropsCount.replace(/,/g, '')) : /no card drops remaining/i.test(drops) ? 0 : null;
  const current = root.querySelector('.badge_current');
  const title = current?.querySelector('.badge_info_title')?.text.trim();
  const src = current?.querySelector('.badge_info_image img')?.getAttribute('src');
  if (!current || !title || !src) return { visibility: 'public', held: null, dropsRemaining };
  const image = src.split(/[?#]/)[0].split('/').pop() ?? '';
  const level = /Level\s+([\d,]+)/.exec(current.querySelector('.badge_info_description')?.text ?? '')?.[1];
  return { visibility: 'public', held: { name: title, image, level: level ? Number(level.replace(/,/g, '')) : 1 }, dropsRemaining };
}
