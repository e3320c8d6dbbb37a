import { CONNECTION_PROVIDERS } from '../account-records/dto/profile-records.dto';

export type ConnectionProvider = (typeof CONNECTION_PROVIDERS)[number];

/** Connections an account may hold (each OAuth provider once, domains up to the rest). */
export const CONNECTIONS_PER_ACCOUNT = 10;

/** An unverified domain connection is dropped this long after it was created (its code no longer proves anything). */
export const UNVERIFIED_DOMAIN_TTL_DAYS = 7;

/** Domain checks an account may ask for in any rolling hour: each one sends DNS and HTTPS requests out. */
export const VERIFY_ATTEMPTS_PER_HOUR = 30;

/** `con_` and 22 base64url characters (16 random bytes). */
export const CONNECTION_ID_PATTERN = /^con_[A-Za-z0-9_-]{22}$/;

/** Where a domain publishes its code. */
export const DNS_RECORD_PREFIX = '_badge-stats';
export const VERIFICATION_TXT_PREFIX = 'badge-stats-verification=';
export const WELL_KNOWN_PATH = '/.well-known/badge-stats-verification.txt';
