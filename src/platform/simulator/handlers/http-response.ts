/** What a handler produces; the server only adds latency and writes it. */
export interface SimResponse {
  status: number;
  body: string;
  contentType: string;
  /**
   * A JSON answer's value before serialisation. An in-process caller (the seed) takes it instead of parsing `body`:
   * rendering and parsing the JSON cost about a third of generating an account. Handlers build plain JSON data
   * (no undefined fields, no Dates), so it equals JSON.parse(body) — the simulator's unit tests check that.
   */
  value?: unknown;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  500: 'Internal Server Error',
};

/** Thrown by handlers for parameter errors; rendered as the platform's small HTML error page. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly rawBody?: string,
  ) {
    super(message);
  }
}

export function json(value: unknown, status = 200): SimResponse {
  let body: string | undefined;
  return {
    status,
    // Rendered on first read only: the in-process caller never reads it.
    get body() {
      return (body ??= JSON.stringify(value));
    },
    contentType: 'application/json; charset=utf-8',
    value,
  };
}

/** The Web API answers errors with a bare HTML page, not JSON. */
export function htmlError(status: number, message: string): SimResponse {
  const title = TITLES[status] ?? 'Error';
  return {
    status,
    body: `<html><head><title>${title}</title></head><body><h1>${title}</h1>${escapeHtml(message)}</body></html>`,
    contentType: 'text/html; charset=utf-8',
  };
}

export function fromError(e: HttpError): SimResponse {
  return e.rawBody !== undefined
    ? { status: e.status, body: e.rawBody, contentType: 'application/json; charset=utf-8' }
    : htmlError(e.status, e.message);
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
