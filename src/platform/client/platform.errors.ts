/** Typed failures of the platform client. Messages never contain the API key (see redact). */

export class PlatformError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** A 4xx the platform will answer the same way again (bad parameters, unknown method, rejected key): no retry. */
export class PlatformHttpError extends PlatformError {
  constructor(
    readonly status: number,
    /** Method and path without query string, e.g. "GET /ISteamUser/GetFriendList/v1/". */
    readonly endpoint: string,
    readonly bodySnippet: string = '',
  ) {
    super(`platform answered HTTP ${status} for ${endpoint}`);
  }
}

/** The shared daily Web API call budget is used up; retry after the UTC day rolls over. */
export class PlatformBudgetExceededError extends PlatformError {
  constructor(readonly dailyLimit: number) {
    super(`daily platform call budget of ${dailyLimit} calls is exhausted`);
  }
}

/** So many market calls are queued (see MarketCallPace) that this one would wait too long; try again later. */
export class PlatformMarketBusyError extends PlatformError {
  constructor(readonly callsPerMinute: number) {
    super(`the market call queue (${callsPerMinute} calls a minute) is full`);
  }
}

/** Retries exhausted on 429/5xx/network errors/timeouts (or an unusable answer): the platform is unavailable. */
export class PlatformUnavailableError extends PlatformError {
  constructor(
    readonly endpoint: string,
    readonly attempts: number,
    /** Last HTTP status seen, null for network errors and timeouts. */
    readonly lastStatus: number | null,
    reason: string,
  ) {
    super(`platform unavailable for ${endpoint} after ${attempts} attempt(s): ${reason}`);
  }
}

/** Removes `key=<value>` query parameters from any text that may hold a URL. */
export function redact(text: string): string {
  return text.replace(/([?&;]|\b)key=[^&#\s"']*/gi, '$1key=[REDACTED]');
}
