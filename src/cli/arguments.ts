import { InvalidArgumentError } from 'commander';

/**
 * A mistake in how the CLI was called that only shows once the command runs (an unknown keeper name, a missing
 * option that depends on another). Reported like commander's own errors: one `error:` line, exit code 2.
 */
export class UsageError extends Error {}

export const MAX_ACCOUNT_ID = 2 ** 31 - 1;

/** Account ids are the platform's 32-bit ids, as `accountId` on the wire. */
export function accountId(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) > MAX_ACCOUNT_ID) throw new InvalidArgumentError(`Expected an account id (0..${MAX_ACCOUNT_ID}).`);
  return Number(raw);
}

/** A whole number from 1 to `max`, for counts and durations. */
export function positiveInteger(max: number): (raw: string) => number {
  return (raw) => {
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max)
      throw new InvalidArgumentError(`Expected a whole number from 1 to ${max}.`);
    return Number(raw);
  };
}

export function isoDate(raw: string): Date {
  const date = new Date(raw);
  if (Number.isNaN(date.getTime())) throw new InvalidArgumentError('Expected an ISO date-time, e.g. 2026-01-31T12:00:00Z.');
  return date;
}

/** `a, b,,c` → ['a', 'b', 'c']. */
export function commaList(raw: string): string[] {
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
