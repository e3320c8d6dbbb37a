import { request as httpRequest, RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { guardedLookup, hostAllowed, REFUSED_DESTINATION, urlProblem } from '../common/net/public-address';
import { JsonLogger } from '../common/logging/json-logger';
import { signDelivery, WEBHOOK_HEADERS } from './webhook-signature';

/** What one attempt came to: the answer's status when there was one, an error text when it failed. */
export interface AttemptOutcome {
  ok: boolean;
  status: number | null;
  error: string | null;
}

const ERROR_MAX_LENGTH = 300;
const logger = new JsonLogger('WebhookSender');

/**
 * One signed POST of a delivery's body. Redirects are not followed (a 3xx is a failure: following one would let
 * the receiver point the worker anywhere), and the URL is checked again against the SSRF rules, since the
 * configuration may have changed since it was registered; the connection itself resolves through `guardedLookup`.
 */
export function sendDelivery(
  target: { url: string; secret: string; eventId: string; body: string },
  options: { timeoutMs: number; allowLoopback: boolean; now?: number },
): Promise<AttemptOutcome> {
  const refused = urlProblem(target.url, options.allowLoopback);
  const url = new URL(target.url);
  if (refused || !hostAllowed(url.hostname, options.allowLoopback))
    return Promise.resolve({ ok: false, status: null, error: `refused: the URL ${refused ?? 'points at a refused address'}` });
  const timestamp = Math.floor((options.now ?? Date.now()) / 1000);
  const requestOptions: RequestOptions = {
    method: 'POST',
    agent: false,
    lookup: guardedLookup(options.allowLoopback),
    headers: {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(target.body),
      'User-Agent': 'badge-stats-webhooks/1',
      [WEBHOOK_HEADERS.eventId]: target.eventId,
      [WEBHOOK_HEADERS.timestamp]: String(timestamp),
      [WEBHOOK_HEADERS.signature]: signDelivery(target.secret, timestamp, target.body),
    },
  };
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(outcome);
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, requestOptions, (res) => {
      const status = res.statusCode ?? 0;
      // The answer's body is not read beyond draining it: only its status counts.
      res.resume();
      res.on('error', () => undefined);
      const ok = status >= 200 && status < 300;
      const note = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
      finish({ ok, status, error: ok ? null : `HTTP ${status}${note}` });
      res.on('end', () => req.destroy());
    });
    // One deadline for the whole attempt (connect, send, the answer's head), not per socket inactivity.
    const deadline = setTimeout(() => {
      req.destroy();
      finish({ ok: false, status: null, error: `timed out after ${options.timeoutMs} ms` });
    }, options.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException & { detail?: unknown }) => {
      if (error.code === 'EWEBHOOKADDRESS') {
        // The owner sees that the destination was refused; what its name resolved to is the operator's to read.
        logger.warn({ msg: 'webhook destination refused', eventId: target.eventId, ...(error.detail as object) });
        return finish({ ok: false, status: null, error: `refused: ${REFUSED_DESTINATION}` });
      }
      finish({
        ok: false,
        status: null,
        error: (error.code ? `${error.code}: ${error.message}` : error.message).slice(0, ERROR_MAX_LENGTH),
      });
    });
    req.end(target.body);
  });
}
