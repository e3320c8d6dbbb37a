import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Examined } from './json-body-examiner';
import { RequestSchemas } from './validation';

interface Pending {
  resolve: (examined: Examined) => void;
  reject: (error: Error) => void;
}

/**
 * One worker thread (json-body-worker.ts) that examines large request bodies, so that parsing and checking the
 * 20 MiB body of account.uploadImages never holds the event loop (JSON.parse alone of such a body is ~100 ms).
 * Started on first use; requests queue on it in order. A thread that dies fails its pending requests (500) and
 * is started again by the next one.
 */
@Injectable()
export class JsonBodyPool implements OnModuleDestroy {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly schemas: RequestSchemas) {}

  /**
   * Starts a body: its chunks are copied to the thread as they arrive (64 kB each, never assembled here), and
   * `end` asks for the examination of the whole; `discard` forgets what was sent.
   */
  open(): { write(chunk: Buffer): void; end(schema: string): Promise<Examined>; discard(): void } {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return {
      write: (chunk) => {
        // A socket chunk may view a larger slab, which postMessage would clone whole: the chunk's bytes are copied
        // into a buffer of their own, which is moved to the thread.
        const own = new Uint8Array(chunk);
        worker.postMessage({ id, chunk: own }, [own.buffer]);
      },
      discard: () => worker.postMessage({ id, discard: true }),
      end: (schema) =>
        new Promise<Examined>((resolve, reject) => {
          this.pending.set(id, { resolve, reject });
          worker.postMessage({ id, end: true, schema });
        }),
    };
  }

  async onModuleDestroy(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    const file = join(__dirname, `json-body-worker${extname(__filename)}`);
    // From TypeScript sources (jest) the thread needs ts-node too; from dist/ it runs plain JS.
    const execArgv = extname(__filename) === '.ts' ? ['-r', 'ts-node/register/transpile-only'] : [];
    const worker = new Worker(file, { workerData: { jsonBodyWorker: true, components: this.schemas.components() }, execArgv });
    worker.unref();
    worker.on('message', (message: { id?: number; examined?: Examined; error?: string }) => {
      if (message.id === undefined) return;
      const pending = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error !== undefined) pending?.reject(new Error(`JSON body thread: ${message.error}`));
      else pending?.resolve(message.examined!);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const pending of this.pending.values()) pending.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`JSON body thread exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }
}
