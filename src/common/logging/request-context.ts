/** The request id travels with nestjs-pino's request-scoped logger (see pino.ts); this is where callers read it. */
export { currentRequestId } from './pino';
