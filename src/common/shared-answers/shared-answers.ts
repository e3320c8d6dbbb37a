import { Global, Inject, Injectable, Module } from '@nestjs/common';
import type { Response } from 'express';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { RenderedJson, sendRenderedJson } from '../wire/rendered-json';

/**
 * # Shared answers
 *
 * Some reads ask a question whose answer is the same for everyone who asks it: a board's top page, the movers of a
 * window, the global feed, the owners of an item. Under load they are also the most repeated requests (every visitor
 * of the web app's front page asks the same few), and each one costs the rank engine's reads, a statement for up to
 * a hundred account cards and their serialisation. So such an answer is computed once and its bytes sent to every
 * caller who asks the same question within `SHARED_ANSWER_TTL_MS` (default 1 s) of its computation: a bounded
 * staleness on top of the stores' own freshness, never a wrong answer to another question. Concurrent identical
 * requests wait for one computation (single flight) instead of each running it — the part that matters most when a
 * page is hot, since without it a burst of N requests costs N computations however short the lifetime. A question
 * asked again in the second half of its answer's lifetime starts the next computation in the background (refresh
 * ahead) and gets the kept answer meanwhile: a steadily asked question never makes its callers wait for a
 * computation, and no answer is sent past its lifetime.
 *
 * What is kept is small and bounded: the rendered bytes, at most `MAX_ENTRIES` questions and `MAX_KEPT_BYTES` in
 * all per process (the oldest go first), an answer above `MAX_ANSWER_BYTES` is sent but not kept, and a failed
 * computation is never kept (its waiters get its error). The question is the operation, its validated request body
 * and, where the answer depends on it, the caller's account (a board's `ownAccount`, an item's friend paths).
 * Per-account reads (a profile counts its views) and totals (`stats.getStats`, exact per request) do not come
 * here. `leaderboard.listBadges` keeps its rendering by version and comes here too: its version check (a statement
 * over the badge statistics) then runs once per lifetime instead of per request. A computation that outlasts the
 * lifetime (a cold changes snapshot: seconds at a million accounts) is still joined by every request arriving while
 * it runs, rather than started again by each. `SHARED_ANSWER_TTL_MS=0` turns it all off (the tests do, since they
 * read right after writing; test/e2e/shared-answers.e2e.spec.ts runs with it on).
 */

/** A wire operation whose answers may be shared: its id, and the response DTO named by its `$schema` link (none for bare answers). */
export interface SharedOperation {
  operationId: string;
  schema: string | null;
}

interface Entry {
  /** The lifetime counts from the computation's start, when it read the stores. */
  expiresAt: number;
  answer: Promise<RenderedJson>;
  settled: boolean;
  bytes: number;
  /** The next answer to the same question, started in the second half of this one's lifetime (refresh ahead). */
  next?: Entry;
}

export const MAX_ENTRIES = 1000;
export const MAX_KEPT_BYTES = 64 * 1024 * 1024;
export const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

@Injectable()
export class SharedAnswers {
  private readonly ttlMs: number;
  /**
   * In insertion order, which is also about expiry order (one lifetime for all; a refreshed answer goes to the end):
   * the first entries go first.
   */
  private readonly entries = new Map<string, Entry>();
  private keptBytes = 0;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.ttlMs = config.sharedAnswerTtlMs;
  }

  /** Sends the answer to `question`, computed by `compute` unless an answer to it at most SHARED_ANSWER_TTL_MS old is kept. */
  async send(res: Response, operation: SharedOperation, question: unknown, compute: () => Promise<object>): Promise<void> {
    const render = async () => RenderedJson.of(this.config.publicBaseUrl, operation.schema, await compute());
    sendRenderedJson(res, await this.answer(operation, question, render));
  }

  /** `send` for an answer its service renders itself (and may keep by version: `leaderboard.listBadges`). */
  async sendRendered(res: Response, operation: SharedOperation, question: unknown, render: () => Promise<RenderedJson>): Promise<void> {
    sendRenderedJson(res, await this.answer(operation, question, render));
  }

  /**
   * The kept answer while it lives; a request in the second half of its life also starts the next computation
   * (one at a time), whose answer replaces it once ready. So a question asked steadily is never waited for: its
   * callers get the kept answer while the next one is computed, and no answer is sent after its lifetime.
   */
  private answer(operation: SharedOperation, question: unknown, render: () => Promise<RenderedJson>): Promise<RenderedJson> {
    if (this.ttlMs === 0) return render();
    const key = `${operation.operationId}\n${JSON.stringify(question)}`;
    const now = Date.now();
    const kept = this.entries.get(key);
    if (kept && (!kept.settled || kept.expiresAt > now)) {
      if (kept.settled && !kept.next && kept.expiresAt - now <= this.ttlMs / 2) kept.next = this.compute(key, render, now);
      return kept.answer;
    }
    if (kept) this.forget(key, kept);
    this.makeRoom(now, 1);
    // A refresh still under way when its predecessor expired is the computation this request joins.
    const entry = kept?.next ?? this.compute(key, render, now);
    this.entries.set(key, entry);
    return entry.answer;
  }

  /** Starts a computation; once it settles it is kept if it is (or is the refresh of) the entry kept for `key`. */
  private compute(key: string, render: () => Promise<RenderedJson>, now: number): Entry {
    const entry: Entry = { expiresAt: now + this.ttlMs, answer: render(), settled: false, bytes: 0 };
    entry.answer.then(
      (rendered) => {
        entry.settled = true;
        const current = this.entries.get(key);
        if (current !== entry && current?.next !== entry) return;
        if (current !== entry) {
          this.forget(key, current);
          this.entries.set(key, entry);
        }
        if (rendered.body.length > MAX_ANSWER_BYTES) return this.forget(key, entry);
        entry.bytes = rendered.body.length;
        this.keptBytes += entry.bytes;
        this.makeRoom(Date.now(), 0);
      },
      () => {
        entry.settled = true;
        const current = this.entries.get(key);
        // A failed refresh leaves the kept answer to live out its lifetime; the next request may start another.
        if (current?.next === entry) current.next = undefined;
        if (current === entry) this.forget(key, entry);
      },
    );
    return entry;
  }

  /** Drops expired entries, then the oldest while over either bound (counting `adding` entries about to be added). */
  private makeRoom(now: number, adding: number): void {
    for (const [key, entry] of this.entries) {
      const over = this.entries.size + adding > MAX_ENTRIES || this.keptBytes > MAX_KEPT_BYTES;
      if ((!entry.settled || entry.expiresAt > now) && !over) break;
      this.forget(key, entry);
    }
  }

  private forget(key: string, entry: Entry): void {
    if (this.entries.get(key) === entry) this.entries.delete(key);
    this.keptBytes -= entry.bytes;
    entry.bytes = 0;
  }
}

/** Global (in CoreModule), so every area's controller can share its answers wherever the areas are loaded. */
@Global()
@Module({ providers: [SharedAnswers], exports: [SharedAnswers] })
export class SharedAnswersModule {}
