import { randomUUID } from 'node:crypto';

/**
 * A part of a response already serialized as JSON (an account card PostgreSQL wrote, see card-values.ts), put into
 * the response text as it is: the largest listings (100 cards) spent more Node time parsing their cards, building
 * them as objects and serializing them again than on anything else. `T` is the shape the text holds.
 *
 * How: `serializeWire` runs JSON.stringify, during which each RawJson stands in as a marker string and queues its
 * text (toJSON is called in document order); the quoted markers are then replaced by the texts, in order. The marker
 * holds a NUL and a per-process random id, so no value from PostgreSQL (whose text cannot hold NUL) can forge it.
 * Only responses that `holdRawJson` registered go this way (linkWireSchemas, schema-link.ts); RawJson must not be logged.
 */
export class RawJson<T> {
  /** Never set: only carries the shape for type checks. */
  declare readonly shape?: T;

  constructor(readonly text: string) {}

  toJSON(): string {
    queued.push(this.text);
    return MARKER;
  }
}

const MARKER = `\u0000raw-json:${randomUUID()}\u0000`;
const QUOTED_MARKER = JSON.stringify(MARKER);
let queued: string[] = [];
const holding = new WeakSet<object>();

/** Marks a response body as holding RawJson parts, so linkWireSchemas serializes it with `serializeWire`. */
export function holdRawJson<T extends object>(body: T): T {
  holding.add(body);
  return body;
}

export function holdsRawJson(body: unknown): boolean {
  return typeof body === 'object' && body !== null && holding.has(body);
}

/** JSON.stringify(body), with every RawJson's text in its place: the bytes the same value as objects would give. */
export function serializeWire(body: unknown): string {
  queued = [];
  const text = JSON.stringify(body);
  const texts = queued;
  queued = [];
  if (!texts.length) return text;
  const parts = text.split(QUOTED_MARKER);
  let out = parts[0];
  for (let i = 0; i < texts.length; i++) out += texts[i] + parts[i + 1];
  return out;
}
