import { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';
import { IncomingMessage, ServerResponse, createServer } from 'node:http';
import type { Socket } from 'node:net';

/**
 * # Requests born with Express's prototypes
 *
 * Express gives every request and response its own methods by changing their prototype as it starts handling them
 * (`Object.setPrototypeOf(req, app.request)` in `app.handle`, the same for `res`). V8 pays for that change on every
 * request, and worse: the objects reached from a request whose prototype was changed outlive the young generation's
 * collections. Under `/health` alone ~13 % of what the API allocated was promoted to the old generation (29 % in a
 * bare Express app), whose growth (~40 MB/s) brought a full collection of the whole heap, card replica included,
 * every ~20 s, with pauses of up to 20–33 ms; a bare Express app answered twice as fast once its requests were born
 * with the right prototypes, and promoted nothing (docs/performance-history.md, "Requests born with Express's
 * prototypes").
 *
 * So the HTTP server is created, as Nest's ExpressAdapter would, but told to build its requests and responses from
 * constructors whose prototypes are the app's own `request` and `response` objects (Node's documented
 * `IncomingMessage` and `ServerResponse` options of `createServer`). Express's call then finds the prototype it sets
 * already there, which V8 answers without changing anything. The constructors must be ES5 functions: a class's
 * `prototype` cannot be assigned, and the prototypes are objects Express built (`app.request` inherits from
 * IncomingMessage.prototype through Express's request methods).
 *
 * HTTPS and `forceCloseConnections` (neither is used here) are left to Nest's own server.
 */
export class PrototypedExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.httpsOptions || options?.forceCloseConnections) return super.initHttpServer(options);
    const app = this.getInstance<Express>();
    this.httpServer = createServer({ IncomingMessage: requestType(app), ServerResponse: responseType(app) }, app);
  }
}

/** A request constructor whose instances are born with `app.request` as their prototype. */
function requestType(app: Express): typeof IncomingMessage {
  function ExpressRequest(this: IncomingMessage, socket: Socket): void {
    IncomingMessage.call(this, socket);
  }
  ExpressRequest.prototype = app.request;
  return ExpressRequest as unknown as typeof IncomingMessage;
}

/** ServerResponse as Node's server calls it, `(req, options)`: its declared type leaves the options out. */
const NodeServerResponse = ServerResponse as unknown as { call(self: ServerResponse, req: IncomingMessage, options?: object): void };

/** A response constructor whose instances are born with `app.response` as their prototype. */
function responseType(app: Express): typeof ServerResponse {
  function ExpressResponse(this: ServerResponse, req: IncomingMessage, options?: object): void {
    NodeServerResponse.call(this, req, options);
  }
  ExpressResponse.prototype = app.response;
  return ExpressResponse as unknown as typeof ServerResponse;
}
