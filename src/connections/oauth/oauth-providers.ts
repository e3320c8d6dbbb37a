import { OAuthClientConfig, OAuthProviderName } from '../../config/connections-config';

/** Who the provider says the user is: all a connection keeps of the exchange. */
export interface OAuthIdentity {
  externalId: string;
  name: string;
  avatar: string;
}

/** How one provider is spoken to: its own endpoints, how the client authenticates, and how its user is read. */
export interface OAuthProviderSpec {
  authorizeUrl: string;
  tokenUrl: string;
  userInfoUrl: string;
  /** Scopes the web app asks for (documentation: the service never builds the authorize URL). */
  scope: string;
  /** `basic`: HTTP Basic with client id and secret (RFC 6749 §2.3.1); `post`: both in the form. */
  clientAuth: 'basic' | 'post';
  /** Twitch's Helix API also wants the client id on every call. */
  clientIdHeader?: string;
  /** The user from the user-info answer (a JSON value), or null when it does not name one. */
  identity: (body: unknown) => OAuthIdentity | null;
}

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const first = (value: unknown): Json => obj(Array.isArray(value) ? value[0] : undefined);
const text = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/** The id, name and avatar, or null without an id. Names and URLs are cut to what a profile shows. */
function identityOf(id: unknown, name: unknown, avatar: unknown): OAuthIdentity | null {
  const externalId = text(id);
  if (!externalId || externalId.length > 128) return null;
  const avatarUrl = text(avatar);
  return { externalId, name: text(name).slice(0, 100), avatar: /^https?:\/\//.test(avatarUrl) ? avatarUrl.slice(0, 500) : '' };
}

/**
 * The providers' published endpoints and user-info answers (as of 2025). OAUTH_PROVIDERS may replace the three URLs
 * of a provider (the simulator's, a proxy's); the answer's shape stays the provider's.
 */
export const OAUTH_PROVIDER_SPECS: Record<OAuthProviderName, OAuthProviderSpec> = {
  discord: {
    authorizeUrl: 'https://discord.com/oauth2/authorize',
    tokenUrl: 'https://discord.com/api/oauth2/token',
    userInfoUrl: 'https://discord.com/api/users/@me',
    scope: 'identify',
    clientAuth: 'basic',
    identity: (body) => {
      const user = obj(body);
      const id = text(user.id);
      const hash = text(user.avatar);
      const avatar = id && /^[a-z0-9_]+$/i.test(hash) ? `https://cdn.discordapp.com/avatars/${id}/${hash}.png` : '';
      return identityOf(id, user.global_name || user.username, avatar);
    },
  },
  patreon: {
    authorizeUrl: 'https://www.patreon.com/oauth2/authorize',
    tokenUrl: 'https://www.patreon.com/api/oauth2/token',
    userInfoUrl: 'https://www.patreon.com/api/oauth2/v2/identity?fields%5Buser%5D=full_name,image_url',
    scope: 'identity',
    clientAuth: 'post',
    identity: (body) => {
      const data = obj(obj(body).data);
      const attributes = obj(data.attributes);
      return identityOf(data.id, attributes.full_name, attributes.image_url);
    },
  },
  kick: {
    authorizeUrl: 'https://id.kick.com/oauth/authorize',
    tokenUrl: 'https://id.kick.com/oauth/token',
    userInfoUrl: 'https://api.kick.com/public/v1/users',
    scope: 'user:read',
    clientAuth: 'post',
    identity: (body) => {
      const user = first(obj(body).data);
      return identityOf(user.user_id, user.name, user.profile_picture);
    },
  },
  reddit: {
    authorizeUrl: 'https://www.reddit.com/api/v1/authorize',
    tokenUrl: 'https://www.reddit.com/api/v1/access_token',
    userInfoUrl: 'https://oauth.reddit.com/api/v1/me',
    scope: 'identity',
    clientAuth: 'basic',
    identity: (body) => {
      const user = obj(body);
      // Reddit escapes the query of icon_img as HTML.
      return identityOf(user.id, user.name, text(user.icon_img).replace(/&amp;/g, '&'));
    },
  },
  twitch: {
    authorizeUrl: 'https://id.twitch.tv/oauth2/authorize',
    tokenUrl: 'https://id.twitch.tv/oauth2/token',
    userInfoUrl: 'https://api.twitch.tv/helix/users',
    scope: '',
    clientAuth: 'post',
    clientIdHeader: 'Client-Id',
    identity: (body) => {
      const user = first(obj(body).data);
      return identityOf(user.id, user.display_name || user.login, user.profile_image_url);
    },
  },
  youtube: {
    authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    userInfoUrl: 'https://www.googleapis.com/youtube/v3/channels?part=snippet&mine=true',
    scope: 'https://www.googleapis.com/auth/youtube.readonly',
    clientAuth: 'post',
    identity: (body) => {
      const channel = first(obj(body).items);
      const snippet = obj(channel.snippet);
      return identityOf(channel.id, snippet.title, obj(obj(snippet.thumbnails).default).url);
    },
  },
  x: {
    authorizeUrl: 'https://x.com/i/oauth2/authorize',
    tokenUrl: 'https://api.x.com/2/oauth2/token',
    userInfoUrl: 'https://api.x.com/2/users/me?user.fields=profile_image_url',
    scope: 'users.read tweet.read',
    clientAuth: 'basic',
    identity: (body) => {
      const user = obj(obj(body).data);
      return identityOf(user.id, user.username, user.profile_image_url);
    },
  },
};

/** A configured provider: its spec with the configured endpoints, and the client. */
export interface OAuthProvider extends OAuthProviderSpec {
  name: OAuthProviderName;
  client: OAuthClientConfig;
}

export function configuredProvider(name: OAuthProviderName, client: OAuthClientConfig | undefined): OAuthProvider | null {
  if (!client) return null;
  const spec = OAUTH_PROVIDER_SPECS[name];
  return {
    ...spec,
    name,
    client,
    authorizeUrl: client.authorizeUrl ?? spec.authorizeUrl,
    tokenUrl: client.tokenUrl ?? spec.tokenUrl,
    userInfoUrl: client.userInfoUrl ?? spec.userInfoUrl,
  };
}
