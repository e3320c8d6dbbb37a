import { hash, randomBytes } from 'node:crypto';

/**
 * Secrets are 256-bit random values, so a fast unsalted SHA-256 is enough to make a stolen table useless. One-shot
 * `hash` (every authenticated request hashes its key): no Hash object to build and collect per call.
 */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

/** API key secrets look like `sk_<12 hex key id>_<random>`; the key id lets a wrong secret be counted against its key. */
export const API_KEY_PATTERN = /^sk_([0-9a-f]{12})_[A-Za-z0-9_-]{43}$/;
export const SESSION_TOKEN_PREFIX = 'auth_';
export const REFRESH_TOKEN_PREFIX = 'rt_';
