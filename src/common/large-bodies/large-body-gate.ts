/**
 * # Large request bodies: a bounded lane
 *
 * Reading and parsing a large body is the one piece of request work whose cost grows with what the client sends
 * (up to 20 MiB on account.uploadImages, 256 kB elsewhere). Unbounded, a flood of such bodies fills every turn of
 * the event loop with socket chunks (libuv reads up to 32 × 64 kB per socket per turn) and garbage, and every
 * small request waits behind it: stats.getStats went from ~15 ms to ~0.5–2 s under 16 parallel maximal bodies.
 *
 * So a body over LARGE_BODY_BYTES (or of unknown length) is read only once it holds one of
 * `LARGE_BODY_CONCURRENCY` slots; until then its socket is not read at all (TCP flow control holds the client
 * back, costing the server nothing), up to `LARGE_BODY_QUEUE` waiting in arrival order. One more is answered 503
 * with `Retry-After` and the connection closed, unread. A slot is held until the body is parsed (and, on the
 * upload path, examined by the JSON body thread), not while the handler runs. Each slot owns one receive buffer,
 * a SharedArrayBuffer allocated on first use and reused: the upload path copies socket chunks into it and the body
 * thread reads it in place, so receiving a body allocates nothing per chunk and moves nothing between threads.
 *
 * Who may take a place at all (issue 60: one stranger sending a byte every two seconds held the only slot for the
 * 300 s of Node's request timeout, and 65 of them filled the queue): a large body is looked at only when its
 * Authorization header carries a live API key or user session (`LargeBodyCredentials`, answered by the auth area);
 * without one it is answered 401 unread and its connection closed, so a credential-less flood never holds a slot or
 * a place in the queue. An address may have `LARGE_BODY_QUEUE_PER_ADDRESS` bodies waiting; one more is a 429. And a
 * body that holds a slot must keep coming (JsonBodyMiddleware's pace: LARGE_BODY_MIN_BYTES_PER_SECOND after the
 * first second, all of it within LARGE_BODY_DEADLINE_MS), or it is cut off with a 408 and the slot moves on.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { serviceUnavailable, tooManyRequests, unauthorized } from '../problem/problem.exception';

/** Bodies larger than this (by Content-Length; a chunked body counts as large) go through the gate. */
export const LARGE_BODY_BYTES = 64 * 1024;

/** Whether a request's credential is one the service issued and still honours, and the address it is counted under. */
export interface LargeBodyCredentials {
  admits(request: Request): Promise<boolean>;
  address(request: Request): string;
}

export const LARGE_BODY_CREDENTIALS = Symbol('LARGE_BODY_CREDENTIALS');

/** A held slot: its receive buffer (grown to `bytes` on demand, kept for the next holder) and its release. */
export interface BodySlot {
  buffer(bytes: number): SharedArrayBuffer;
  release(): void;
}

interface Waiter {
  address: string;
  request: Request;
  response: Response;
  grant: (slot: BodySlot) => void;
}

@Injectable()
export class LargeBodyGate {
  private readonly free: number[];
  private readonly buffers: (SharedArrayBuffer | null)[];
  private readonly waiting: Waiter[] = [];
  private readonly queueLimit: number;
  private readonly perAddressLimit: number;
  /** Bodies waiting, by address. */
  private readonly waitingBy = new Map<string, number>();

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LARGE_BODY_CREDENTIALS) private readonly credentials: LargeBodyCredentials,
  ) {
    this.free = Array.from({ length: config.largeBodies.concurrency }, (_slot, index) => index);
    this.buffers = this.free.map(() => null);
    this.queueLimit = config.largeBodies.queue;
    this.perAddressLimit = config.largeBodies.queuePerAddress;
  }

  /** Whether the request's body must go through the gate. */
  static isLarge(request: Request): boolean {
    const length = request.header('content-length');
    if (length === undefined) return request.header('transfer-encoding') !== undefined;
    return Number(length) > LARGE_BODY_BYTES;
  }

  /**
   * Calls `run` with a slot once one is free; the slot must be released when the body has been parsed. A request
   * past the queue is answered 503 here (`refuse` gets the problem) and its connection closed once answered; a
   * request whose client goes away while waiting leaves the queue.
   */
  enter(request: Request, response: Response, run: (slot: BodySlot) => void, refuse: (error: unknown) => void): void {
    // Draining megabytes only to refuse them is the work this gate exists to avoid: a refused body's connection goes.
    const turnAway = (problem: unknown) => {
      response.setHeader('Connection', 'close');
      refuse(problem);
    };
    this.credentials.admits(request).then((admitted) => {
      if (request.destroyed) return;
      if (!admitted)
        return turnAway(
          unauthorized(
            `A request body over ${LARGE_BODY_BYTES / 1024} KiB (or sent chunked) is read only with a valid API key or session in the Authorization header.`,
          ),
        );
      const index = this.free.pop();
      if (index !== undefined) return run(this.slot(index, response));
      const address = this.credentials.address(request);
      if ((this.waitingBy.get(address) ?? 0) >= this.perAddressLimit)
        return turnAway(tooManyRequests('Too many large request bodies from this address are waiting; retry shortly.', 1));
      if (this.waiting.length >= this.queueLimit)
        return turnAway(serviceUnavailable('The server is receiving too many large request bodies; retry shortly.', 1));
      this.wait({ address, request, response, grant: run });
    }, turnAway);
  }

  private wait(waiter: Waiter): void {
    this.waiting.push(waiter);
    this.waitingBy.set(waiter.address, (this.waitingBy.get(waiter.address) ?? 0) + 1);
    waiter.request.once('close', () => {
      const at = this.waiting.indexOf(waiter);
      if (at >= 0) this.leave(at);
    });
  }

  /** Takes the waiter at `at` out of the queue and its address's count. */
  private leave(at: number): Waiter {
    const [waiter] = this.waiting.splice(at, 1);
    const left = (this.waitingBy.get(waiter.address) ?? 1) - 1;
    if (left > 0) this.waitingBy.set(waiter.address, left);
    else this.waitingBy.delete(waiter.address);
    return waiter;
  }

  /** Slots free and bodies waiting, for tests and diagnostics. */
  state(): { free: number; waiting: number } {
    return { free: this.free.length, waiting: this.waiting.length };
  }

  private slot(index: number, response: Response): BodySlot {
    let released = false;
    const slot: BodySlot = {
      buffer: (bytes) => {
        const current = this.buffers[index];
        if (current && current.byteLength >= bytes) return current;
        // Sized to the largest body its holders have needed, so a pod that only sees small uploads stays small.
        return (this.buffers[index] = new SharedArrayBuffer(bytes));
      },
      release: () => {
        if (released) return;
        released = true;
        this.handOver(index);
      },
    };
    // A safety net: whatever path a request takes, its slot is free once its response is done or its connection gone,
    // so a slot can never be lost and the gate never closes for good.
    response.once('close', slot.release);
    return slot;
  }

  private handOver(index: number): void {
    const next = this.waiting.length ? this.leave(0) : undefined;
    if (!next) {
      this.free.push(index);
      return;
    }
    // On a later turn: the releasing request's own callbacks finish first, and the new holder starts on a fresh turn.
    setImmediate(() => (next.request.destroyed ? this.handOver(index) : next.grant(this.slot(index, next.response))));
  }
}
