import { createHash } from 'node:crypto';
import type { OAuthProviderName } from '../../../config/connections-config';

/** Who simulated account N is on each provider: a pure function of (provider, N), the same on every run. */
export interface SimulatedIdentity {
  id: string;
  name: string;
  avatar: string;
}

export function simulatedIdentity(provider: OAuthProviderName, accountId: number, origin: string): SimulatedIdentity {
  const digest = createHash('sha256').update(`${provider}:${accountId}`).digest();
  // A snowflake-like decimal id (every provider has numeric or opaque ids; decimals suit them all).
  const id = (digest.readBigUInt64BE(0) >> 4n).toString();
  return { id, name: `${provider}_user_${accountId}`, avatar: `${origin}/oauth/${provider}/avatars/${id}.png` };
}

/** The provider's own user-info answer for that user, in its shape (what the service's readers expect of each). */
export function userInfoBody(provider: OAuthProviderName, user: SimulatedIdentity): unknown {
  switch (provider) {
    case 'discord':
      return { id: user.id, username: user.name, global_name: user.name, avatar: user.id.slice(0, 12) };
    case 'patreon':
      return { data: { id: user.id, type: 'user', attributes: { full_name: user.name, image_url: user.avatar } } };
    case 'kick':
      return { data: [{ user_id: Number(user.id.slice(0, 12)), name: user.name, email: '', profile_picture: user.avatar }], message: 'OK' };
    case 'reddit':
      return { id: user.id, name: user.name, icon_img: `${user.avatar}?s=1&amp;v=2` };
    case 'twitch':
      return { data: [{ id: user.id, login: user.name, display_name: user.name, profile_image_url: user.avatar }] };
    case 'youtube':
      return { items: [{ id: `UC${user.id}`, snippet: { title: user.name, thumbnails: { default: { url: user.avatar } } } }] };
    case 'x':
      return { data: { id: user.id, name: user.name, username: user.name, profile_image_url: user.avatar } };
  }
}
