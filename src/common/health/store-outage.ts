/**
 * Tells an unreachable backing store apart from a bug. The errors come from three libraries (pg, TypeORM,
 * ioredis/BullMQ) that share no error class, so they are recognised by code and message; what is not
 * recognised stays a 500 and is logged as a bug.
 */
/** `network`: a socket error that names no store (pg and ioredis raise the same node errors). */
export type Store = 'postgres' | 'redis' | 'network';

/** Socket-level failures: the store's host refused, dropped or never answered the connection. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/** SQLSTATE classes and codes meaning "the server cannot serve now", not "the statement is wrong". */
const PG_UNAVAILABLE = /^(08|57P0[123]|53300|53400)/;

const REDIS_MESSAGES = [
  /enableOfflineQueue/,
  /^Connection is closed\.?$/,
  /max retries per request/i,
  /^Command timed out$/,
  /Redis is loading the dataset/,
  /^(LOADING|MASTERDOWN|READONLY)\b/,
];

const PG_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /not queryable/,
  /Connection is not established/,
  /the database system is (starting up|shutting down|in recovery mode)/,
  /terminating connection due to administrator command/,
];

interface ErrorLike {
  name?: string;
  message?: string;
  code?: unknown;
  driverError?: unknown;
  errors?: unknown[];
  cause?: unknown;
}

/** Which store an error says is unavailable, or null when the error is not an outage. */
export function storeOutage(error: unknown, depth = 0): Store | null {
  if (!error || typeof error !== 'object' || depth > 3) return null;
  const e = error as ErrorLike;
  const message = typeof e.message === 'string' ? e.message : '';
  const code = typeof e.code === 'string' ? e.code : '';
  if (e.name === 'MaxRetriesPerRequestError' || REDIS_MESSAGES.some((pattern) => pattern.test(message))) return 'redis';
  if (PG_MESSAGES.some((pattern) => pattern.test(message)) || PG_UNAVAILABLE.test(code)) return 'postgres';
  // TypeORM wraps the pg error; AggregateError (a host with several addresses) and `cause` wrap socket errors.
  for (const inner of [e.driverError, e.cause, ...(Array.isArray(e.errors) ? e.errors : [])]) {
    const found = storeOutage(inner, depth + 1);
    if (found) return found;
  }
  return NETWORK_CODES.has(code) ? 'network' : null;
}

/** The text of an error, including AggregateError, whose own message is empty for a refused connection. */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const inner = (error as ErrorLike).errors;
  if (!error.message && Array.isArray(inner) && inner[0] instanceof Error) return inner.map((e) => (e as Error).message).join('; ');
  const code = (error as ErrorLike).code;
  return error.message || (typeof code === 'string' ? code : error.name);
}
