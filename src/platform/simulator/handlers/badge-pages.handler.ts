import { HttpError, escapeHtml, htmlError, type SimResponse } from './http-response';
import type { Universe } from '../universe/universe';

/** Where the community site serves item images from, relative to its origin (the platform uses a CDN host). */
const ITEM_IMAGES = '/public/images/items';

/**
 * A profile's page of one badge, as the community site renders it: `GET /profiles/{steamid}/gamecards/{appid}/`
 * (`?border=1` for the foil badge) or `GET /profiles/{steamid}/badges/{badgeid}/` (a special badge). The badge the
 * account holds is the `badge_current` block: its image (`badge_info_image img`, a file named by the art's hash),
 * its name (`badge_info_title`) and its level and xp. An account that holds none of it gets the page without that
 * block (the next level to craft, named in `badge_empty_name`, with no image); a private profile the site's
 * private-profile page, HTTP 200 both; an unknown account or app 404. The badge's art is the universe's (badge-art.ts).
 * A game's normal page of an owned game also shows its card drops left (`badge_title_stats_drops`, card-drops.ts).
 */
export function badgePage(
  u: Universe,
  tick: number,
  steamId: string,
  kind: 'gamecards' | 'badges',
  id: string,
  q: URLSearchParams,
): SimResponse {
  if (!/^\d{1,20}$/.test(steamId) || !/^\d{1,10}$/.test(id)) throw new HttpError(400, 'bad badge page');
  const accountId = u.accountIdOf(steamId);
  const foil = kind === 'gamecards' && q.get('border') === '1';
  const badge = kind === 'gamecards' ? { appId: Number(id), badgeId: 1, foil } : { appId: 0, badgeId: Number(id), foil: false };
  if (
    accountId === null ||
    (badge.appId > 0 && !u.catalogue.byId(badge.appId)) ||
    (badge.appId === 0 && (badge.badgeId < 1 || badge.badgeId > 64))
  )
    return htmlError(404, 'Not Found');
  if (u.isPrivate(accountId)) return html(page(`<div class="profile_private_info">This profile is private.</div>`));
  const held = u
    .badges(accountId, tick)
    .badges.find((b) =>
      badge.appId > 0 ? b.appId === badge.appId && (b.borderColor === 1) === foil : b.appId === undefined && b.badgeId === badge.badgeId,
    );
  const folder = badge.appId > 0 ? String(badge.appId) : `badge_${badge.badgeId}`;
  let current = '';
  if (held) {
    const art = u.badgeArt(badge, held.level);
    current = `
      <div class="badge_current">
        <div class="badge_info">
          <div class="badge_info_image">
            <img src="${ITEM_IMAGES}/${folder}/${art.iconHash}.png" class="badge_icon">
          </div>
          <div class="badge_info_description">
            <div class="badge_info_title">${escapeHtml(art.name)}</div>
            <div>
              Level ${held.level}, ${held.xp} XP
            </div>
            <div class="badge_info_unlocked">Unlocked ${new Date(held.completionTime * 1000).toUTCString()}</div>
          </div>
          <div style="clear: left;"></div>
        </div>
      </div>`;
  }
  const nextLevel = (held?.level ?? 0) + 1;
  const next =
    badge.appId > 0 && !foil && nextLevel <= 5
      ? `
      <div class="gamecard_badge_progress">
        <div class="badge_empty_circle"></div>
        <div class="badge_empty_right">
          <div class="badge_empty_name">${escapeHtml(u.badgeArt(badge, nextLevel).name)}</div>
          <div>Level ${nextLevel}, ${nextLevel * 100} XP</div>
        </div>
      </div>`
      : '';
  // The card drops left, as the site shows them on a game's normal badge page (none for a game the account does not own).
  const drops = badge.appId > 0 && !foil ? u.cardDropsRemaining(accountId, badge.appId, tick) : null;
  const dropsBlock =
    drops === null
      ? ''
      : `
      <div class="badge_title_stats_drops">
        <span class="progress_info_bold">${drops > 0 ? `${drops} card drop${drops === 1 ? '' : 's'} remaining` : 'No card drops remaining'}</span>
      </div>`;
  return html(
    page(`<div class="badge_row depressed badge_gamecard_page">${dropsBlock}<div class="badge_detail_tasks">${current}${next}</div></div>`),
  );
}

function page(content: string): string {
  return `<!DOCTYPE html>
<html class="responsive">
<head><meta charset="utf-8"><title>Steam Community :: Badge</title></head>
<body class="flat_page">
  <div class="responsive_page_template_content">
    ${content}
  </div>
</body>
</html>`;
}

function html(body: string): SimResponse {
  return { status: 200, body, contentType: 'text/html; charset=UTF-8' };
}
