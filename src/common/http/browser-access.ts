/**
 * # Browser access: CORS and security headers
 *
 * The service's first user is a single-page web app on another origin (`WEB_APP_ORIGIN`, or the allow-list
 * `CORS_ORIGINS`). Every answer goes through two maintained middlewares, mounted on express before anything else
 * (before Swagger UI's routes and Nest's own middleware, so that preflights and `/docs` get them too):
 *
 * - **helmet** sets the security headers: `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`,
 *   `Referrer-Policy: no-referrer`, `Strict-Transport-Security` (ignored by browsers on plain http), a
 *   `Cross-Origin-Resource-Policy`, and a content security policy — `default-src 'none'; frame-ancestors 'none'`
 *   for the API's JSON (nothing in an answer may load or run anything), one that lets Swagger UI run under `/docs`
 *   and the queue dashboard under `/admin/queues` (their scripts and styles are the service's own files; their
 *   inline styles need `'unsafe-inline'` for styles).
 *   The headers that only concern HTML documents of old browsers (X-XSS-Protection, X-Download-Options,
 *   X-DNS-Prefetch-Control, X-Permitted-Cross-Domain-Policies, Origin-Agent-Cluster, COOP) are kept for `/docs`
 *   only. Uploaded images (`/images/…`) are `Cross-Origin-Resource-Policy: cross-origin`: the web app shows them in
 *   `<img>`, which a same-origin policy would block.
 * - **cors** answers the preflights (`OPTIONS` with `Access-Control-Request-Method`) from an allowed origin with 204,
 *   the origin echoed (`Vary: Origin`), the methods and request headers the operations and streams use and a
 *   max-age; it adds `Access-Control-Allow-Origin` and the readable response headers to the allowed origins'
 *   requests. Any other origin gets no CORS header at all, and its preflight goes on like any `OPTIONS`: a 405 naming
 *   the path's methods. Credentials are bearer tokens, never cookies, so no `Allow-Credentials`.
 *
 * `Cache-Control: no-store` is not set here: it goes on the answers that carry a credential, a code or a secret, per
 * operation (`WireOperation`, `noStore`).
 */
import cors from 'cors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';

/** How long a browser may reuse a preflight's answer (Chromium caps it at 2 hours). */
export const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/** What the operations take: `POST` with a JSON body, `GET` for the streams, documents, schemas and images. */
export const CORS_METHODS = ['GET', 'HEAD', 'POST'];

/**
 * Request headers a page may send: the credential, the JSON body's type, a stream's resume point, the request id,
 * a revalidation of the documents and images; `X-Forwarded-For`, which the reference's client may send (ignored:
 * the address is the connection's, or the trusted proxies').
 */
export const CORS_REQUEST_HEADERS = ['Authorization', 'Content-Type', 'Last-Event-ID', 'X-Request-Id', 'If-None-Match', 'X-Forwarded-For'];

/** Response headers a page may read besides the CORS-safelisted ones: the rate limits, retry delays, request ids. */
export const CORS_EXPOSED_HEADERS = [
  'RateLimit-Policy',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'X-Request-Id',
  'ETag',
  'Allow',
];

/** The API's JSON and streams: nothing in them may load or run anything, or be framed. */
const API_CSP = { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } };

function apiHeaders(resourcePolicy: 'same-origin' | 'cross-origin'): RequestHandler {
  return helmet({
    contentSecurityPolicy: API_CSP,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: { policy: resourcePolicy },
    originAgentCluster: false,
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: false },
    xContentTypeOptions: true,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: { action: 'deny' },
    xPermittedCrossDomainPolicies: false,
    xPoweredBy: false,
    xXssProtection: false,
  });
}

/** Swagger UI: its own scripts and styles, its inline `<style>`, data: images, and "Try it out" on this origin. */
function docsHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: false },
    xFrameOptions: { action: 'deny' },
  });
}

/** The one middleware that gives every answer its security headers and the allowed origins' CORS headers. */
export function browserAccess(allowedOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowedOrigins);
  const api = apiHeaders('same-origin');
  const images = apiHeaders('cross-origin');
  const docs = docsHeaders();
  const corsHeaders = cors({
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin) ? origin : false),
    methods: CORS_METHODS,
    allowedHeaders: CORS_REQUEST_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    optionsSuccessStatus: 204,
  });
  return (request: Request, response: Response, next: NextFunction) => {
    const url = request.url;
    // The queue dashboard (Bull Board, /admin/queues) is a page of its own scripts and styles, as Swagger UI is.
    const headers = url.startsWith('/docs') || url.startsWith('/admin/queues') ? docs : url.startsWith('/images/') ? images : api;
    headers(request, response, (error?: unknown) => {
      if (error) return next(error);
      // GET answers may be cached (documents, schemas, images): which origin asked changes them.
      if (request.method === 'GET' || request.method === 'HEAD') response.vary('Origin');
      // Only a request from a page on another origin is a CORS request; an OPTIONS without
      // Access-Control-Request-Method is no preflight, and stays a 405.
      if (request.headers.origin === undefined) return next();
      if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] === undefined) return next();
      corsHeaders(request, response, next);
    });
  };
}
