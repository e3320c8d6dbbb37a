import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Base64Paths, Examined } from './json-body-examiner';
import { RequestSchemas } from './validation';

interface Pending {
  resolve: (examined: Examined) => void;
  reject: (error: Error) => void;
}

/**
 * One worker thread (json-body-worker.ts) that examines large request bodies, so that parsing and checking the
 * 20 MiB body of account.uploadImages never holds the event loop (JSON.parse alone of such a body is ~100 ms).
 * Started on first use; requests queue on it in order (at most LARGE_BODY_CONCURRENCY of them, see LargeBodyGate). A thread that dies fails its pending requests (500) and
 * is started again by the next one.
 */
@Injectable()
export class JsonBodyPool implements OnModuleDestroy {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly schemas: RequestSchemas) {}

  /**
   * Examines the first `length` bytes of `buffer` (a body received into its LargeBodyGate slot) on the thread, in
   * place: shared memory, so nothing is copied or transferred. The buffer must not be reused before this settles.
   */
  examine(buffer: SharedArrayBuffer, length: number, schema: string, base64: Base64Paths = []): Promise<Examined> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<Examined>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, buffer, length, schema, base64 });
    });
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
