import { randomInt, timingSafeEqual } from 'node:crypto';
import { hashSecret } from '../auth/secrets';

/** Six digits, as people type them from a message; the reference's example code is `123456`. */
export const CODE_PATTERN = /^\d{6}$/;
/** A code is good for this long after it was sent. */
export const CODE_TTL_MINUTES = 15;
/** Wrong codes tried against one code before it is voided. */
export const MAX_WRONG_CODES = 5;
/** Codes sent to one account in any rolling hour (429 past it). */
export const SENDS_PER_HOUR = 5;

export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * The stored form of a code: SHA-256 over the account, the address and the code, so a stored hash answers for that
 * account and that address only. Six digits are few enough to try them all against a stolen hash; what keeps a code
 * safe is its short life and its few tries, and the hash keeps it out of backups, dumps and replicas as written.
 */
export function codeHash(accountId: number, email: string, code: string): string {
  return hashSecret(`${accountId}\n${email}\n${code}`);
}

export function sameHash(a: string, b: string): boolean {
  const [left, right] = [Buffer.from(a, 'hex'), Buffer.from(b, 'hex')];
  return left.length === right.length && timingSafeEqual(left, right);
}

/** `.invalid` is reserved for addresses that cannot exist: an account made without one has `account-N@users.invalid`. */
export function hasAddress(email: string): boolean {
  return email.includes('@') && !/\.invalid$/i.test(email.trim());
}
