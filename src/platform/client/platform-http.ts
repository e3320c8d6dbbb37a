import type { CallBudget, MarketCallPace } from './call-budget';
import { sleep } from '../../common/scheduling/sleep';
import { PlatformHttpError, PlatformUnavailableError, redact } from './platform.errors';

export interface PlatformHttpOptions {
  apiKey: string | null;
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  budget?: CallBudget | null;
  /** Spaces market calls (see MarketCallPace); every attempt of a paced call waits for its own slot. */
  marketPace?: MarketCallPace | null;
}

export type QueryValue = string | number | boolean | undefined;

/**
 * How a body is read: JSON (the Web API and most community endpoints), or text: the group members list is XML, a
 * badge page HTML.
 */
export type BodyFormat = 'json' | 'text' | 'html';
/**
 * How one call is made: `paced` waits for a market slot per attempt; `signal` abandons the call (and its retries);
 * `format` is how its body is read.
 */
export interface CallOptions {
  paced?: boolean;
  signal?: AbortSignal;
  format?: BodyFormat;
}

/** Statuses the caller interprets itself (private profiles, rejected keys); everything else 4xx is an error. */
export interface HttpOutcome {
  status: 200 | 401 | 403;
  body: unknown;
}

const MAX_BACKOFF_MS = 30_000;
/** Retry-After is honoured up to this long; a platform asking for more is treated as unavailable for now. */
const MAX_RETRY_AFTER_MS = 300_000;

/**
 * One GET with the platform's retry policy: 429, 5xx, network errors, timeouts and unparsable bodies are retried
 * with exponential backoff plus jitter (or the Retry-After the platform sends), up to maxRetries retries; other 4xx
 * except 401/403 throw PlatformHttpError at once. Web API calls (withKey) take one budget unit per attempt,
 * since every attempt counts against the platform's daily allowance; market calls (paced) wait for a market slot
 * per attempt, since every attempt counts against the market's limit.
 */
export class PlatformHttp {
  constructor(private readonly opts: PlatformHttpOptions) {}

  async get(
    baseUrl: string,
    path: string,
    query: Record<string, QueryValue>,
    withKey: boolean,
    call: CallOptions = {},
  ): Promise<HttpOutcome> {
    const { paced = false, signal, format = 'json' } = call;
    const url = this.buildUrl(baseUrl, path, query, withKey);
    const endpoint = `GET ${path}`;
    let lastStatus: number | null = null;
    let reason = 'no attempt made';
    const attempts = 1 + Math.max(0, this.opts.maxRetries);
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (withKey && this.opts.budget) await this.opts.budget.take(1);
      signal?.throwIfAborted();
      if (paced && this.opts.marketPace) await this.opts.marketPace.acquire(signal);
      let retryAfterMs: number | null = null;
      try {
        const timeout = AbortSignal.timeout(this.opts.timeoutMs);
        const accept = format === 'json' ? 'application/json' : format === 'html' ? 'text/html' : 'text/xml, text/plain;q=0.9';
        const res = await fetch(url, { signal: signal ? AbortSignal.any([timeout, signal]) : timeout, headers: { Accept: accept } });
        lastStatus = res.status;
        const text = await res.text();
        if (res.status === 200 || res.status === 401 || res.status === 403) {
          if (format !== 'json') return { status: res.status, body: text };
          if (res.status !== 200) return { status: res.status, body: safeJson(text) };
          const body = safeJson(text);
          if (body !== undefined) return { status: 200, body };
          reason = 'unparsable JSON body';
        } else if (res.status === 429 || res.status >= 500) {
          reason = `HTTP ${res.status}`;
          retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
          if (retryAfterMs !== null && retryAfterMs > MAX_RETRY_AFTER_MS) break;
        } else if (res.status >= 200 && res.status < 300) {
          reason = `unexpected HTTP ${res.status}`;
        } else {
          throw new PlatformHttpError(res.status, endpoint, this.scrub(text.slice(0, 200)));
        }
      } catch (e) {
        if (e instanceof PlatformHttpError) throw e;
        // Abandoned by the caller, not a timeout: no retry.
        signal?.throwIfAborted();
        lastStatus = null;
        reason = isTimeout(e) ? `timeout after ${this.opts.timeoutMs} ms` : `network error (${this.scrub(errorCode(e))})`;
      }
      if (attempt + 1 < attempts) await sleep(retryAfterMs ?? this.backoff(attempt), signal);
    }
    throw new PlatformUnavailableError(endpoint, attempts, lastStatus, reason);
  }

  private backoff(attempt: number): number {
    const base = Math.max(0, this.opts.retryBaseMs);
    return Math.min(MAX_BACKOFF_MS, base * 2 ** attempt) + Math.random() * base;
  }

  private buildUrl(baseUrl: string, path: string, query: Record<string, QueryValue>, withKey: boolean): string {
    const params = new URLSearchParams();
    if (withKey && this.opts.apiKey !== null) params.set('key', this.opts.apiKey);
    for (const [k, v] of Object.entries(query)) {
      if (v !== undefined) params.set(k, typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
    }
    const qs = params.toString();
    return `${baseUrl.replace(/\/+$/, '')}${path}${qs ? `?${qs}` : ''}`;
  }

  /** Belt and braces: strip key= and the literal key from anything that could reach a message. */
  private scrub(text: string): string {
    const key = this.opts.apiKey;
    const redacted = redact(text);
    return key ? redacted.split(key).join('[REDACTED]') : redacted;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Retry-After as delta-seconds or an HTTP date; null if absent or unparsable. */
export function parseRetryAfter(value: string | null): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** Duck-typed: fetch's DOMException may come from another realm (e.g. under jest), defeating instanceof. */
function isTimeout(e: unknown): boolean {
  const name = (e as { name?: unknown } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

/** A short, URL-free description of a fetch failure (undici puts the OS error on `cause`). */
function errorCode(e: unknown): string {
  const err = e as { name?: unknown; cause?: { code?: unknown } } | null;
  const code = err?.cause?.code ?? err?.name;
  return typeof code === 'string' ? code : 'unknown';
}
