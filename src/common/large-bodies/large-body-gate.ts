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
 */
import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { serviceUnavailable } from '../problem/problem.exception';

/** Bodies larger than this (by Content-Length; a chunked body counts as large) go through the gate. */
export const LARGE_BODY_BYTES = 64 * 1024;

/** A held slot: its receive buffer (grown to `bytes` on demand, kept for the next holder) and its release. */
export interface BodySlot {
  buffer(bytes: number): SharedArrayBuffer;
  release(): void;
}

interface Waiter {
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

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.free = Array.from({ length: config.largeBodies.concurrency }, (_slot, index) => index);
    this.buffers = this.free.map(() => null);
    this.queueLimit = config.largeBodies.queue;
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
    const index = this.free.pop();
    if (index !== undefined) return run(this.slot(index, response));
    if (this.waiting.length >= this.queueLimit) {
      // Draining megabytes only to refuse them is the work this gate exists to avoid: the connection goes instead.
      response.setHeader('Connection', 'close');
      return refuse(serviceUnavailable('The server is receiving too many large request bodies; retry shortly.', 1));
    }
    const waiter: Waiter = { request, response, grant: run };
    this.waiting.push(waiter);
    request.once('close', () => {
      const at = this.waiting.indexOf(waiter);
      if (at >= 0) this.waiting.splice(at, 1);
    });
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
    const next = this.waiting.shift();
    if (!next) {
      this.free.push(index);
      return;
    }
    // On a later turn: the releasing request's own callbacks finish first, and the new holder starts on a fresh turn.
    setImmediate(() => (next.request.destroyed ? this.handOver(index) : next.grant(this.slot(index, next.response))));
  }
}
