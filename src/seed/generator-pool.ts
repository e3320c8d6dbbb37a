import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { SeedParameters } from './account-history';
import { ChunkGenerator, ChunkRequest, ChunkResult } from './chunk-generator';

/** One generating thread: a worker_thread running chunk-generator, asked for one chunk at a time. */
class GeneratorThread {
  private readonly worker: Worker;
  private readonly ready: Promise<void>;
  private pending: { resolve: (result: ChunkResult) => void; reject: (error: Error) => void } | null = null;

  constructor(parameters: SeedParameters) {
    const file = join(__dirname, `chunk-generator${extname(__filename)}`);
    // From TypeScript sources (npm run seed, jest) the thread needs ts-node too; from dist/ it runs plain JS.
    const execArgv = extname(__filename) === '.ts' ? ['-r', 'ts-node/register/transpile-only'] : [];
    this.worker = new Worker(file, { workerData: { seedWorker: true, parameters }, execArgv });
    this.ready = new Promise((resolve, reject) => {
      this.worker.once('error', reject);
      this.worker.once('message', () => resolve());
    });
    this.worker.on('error', (error) => this.settle(null, error));
    this.worker.on('exit', (code) => this.settle(null, new Error(`seed generator thread exited with code ${code}`)));
  }

  async run(request: ChunkRequest): Promise<ChunkResult> {
    await this.ready;
    return new Promise<ChunkResult>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.worker.once('message', (message: { result?: ChunkResult; error?: string }) =>
        this.settle(message.result ?? null, message.error ? new Error(message.error) : null),
      );
      this.worker.postMessage(request);
    });
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }

  private settle(result: ChunkResult | null, error: Error | null): void {
    const pending = this.pending;
    this.pending = null;
    if (!pending) return;
    if (result) pending.resolve(result);
    else pending.reject(error ?? new Error('seed generator thread answered nothing'));
  }
}

/**
 * Generates accounts 1..N in chunks, on `threads` worker threads (0: in this thread), and hands every chunk to
 * `consume` in account order — so each table's COPY appends to its primary key in key order — while the threads
 * already generate the next chunks. At most `2 × threads` finished chunks wait for `consume`, which bounds memory
 * when PostgreSQL is the slower side.
 */
export async function generateInOrder(
  parameters: SeedParameters,
  threads: number,
  chunkSize: number,
  consume: (result: ChunkResult) => Promise<void>,
): Promise<void> {
  const chunks = Math.ceil(parameters.accounts / chunkSize);
  const request = (index: number): ChunkRequest => ({
    index,
    from: index * chunkSize + 1,
    to: Math.min(parameters.accounts, (index + 1) * chunkSize),
  });
  if (threads === 0) {
    const generator = new ChunkGenerator(parameters);
    for (let index = 0; index < chunks; index++) await consume(await generator.generate(request(index)));
    return;
  }
  const finished = new Map<number, ChunkResult>();
  let nextToAssign = 0;
  let nextToConsume = 0;
  let failure: unknown = null;
  let wake: () => void = () => undefined;
  let progressed = new Promise<void>((resolve) => (wake = resolve));
  const signal = () => {
    const resolve = wake;
    progressed = new Promise<void>((r) => (wake = r));
    resolve();
  };
  let consuming = Promise.resolve();
  const drain = async () => {
    try {
      for (let next = finished.get(nextToConsume); next && !failure; next = finished.get(nextToConsume)) {
        finished.delete(nextToConsume);
        await consume(next);
        nextToConsume++;
        signal();
      }
    } catch (error) {
      failure ??= error;
      signal();
    }
  };
  const pool = Array.from({ length: threads }, () => new GeneratorThread(parameters));
  const drive = async (thread: GeneratorThread) => {
    while (!failure && nextToAssign < chunks) {
      if (nextToAssign - nextToConsume >= 2 * threads) {
        await progressed;
        continue;
      }
      const result = await thread.run(request(nextToAssign++));
      finished.set(result.index, result);
      consuming = consuming.then(drain);
    }
  };
  try {
    await Promise.all(
      pool.map((thread) =>
        drive(thread).catch((error: unknown) => {
          failure ??= error;
          signal();
        }),
      ),
    );
    await consuming;
    if (failure) throw failure;
  } finally {
    await Promise.all(pool.map((thread) => thread.terminate()));
  }
}
