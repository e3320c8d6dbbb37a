import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { AccountUpdateQueueService } from '../../src/refresh/account-update-queue.service';
import { PlatformClient } from '../../src/platform/client/platform-client';
import { benchEnvironment, numberFlag, readAsTheWorker, report, startWorker } from './harness';

/**
 * `npm run bench:updates [-- --accounts 300 --concurrency 4]`: account updates per second through the whole
 * pipeline (queue → worker → platform over HTTP → PostgreSQL), against a baseline measured in the same run:
 * the same platform reads with the same concurrency and no queue or database. The ratio is the cost of
 * everything the service adds to reading the platform.
 */
async function main(): Promise<void> {
  const accounts = numberFlag('accounts', 300);
  const concurrency = numberFlag('concurrency', 4);
  const env = await benchEnvironment('updates', Math.max(accounts, 1000), { WORKER_CONCURRENCY: String(concurrency) });
  const worker = await startWorker(env.config);
  try {
    const client = worker.get(PlatformClient);
    const ids = Array.from({ length: accounts }, (_, i) => i + 1);

    const fetchSeconds = await readAsTheWorker(client, ids, concurrency);

    const queue = worker.get(AccountUpdateQueueService);
    const dataSource = worker.get(DataSource);
    await dataSource.query('INSERT INTO accounts (account_id) SELECT unnest($1::int[]) ON CONFLICT DO NOTHING', [ids]);
    const started = performance.now();
    // As the operator's CLI queues them: a request's updates would count against its account's platform share.
    for (const accountId of ids) await queue.queueTrusted({ id: { accountId } }, false);
    for (;;) {
      const [{ done }] = await dataSource.query(`SELECT count(*)::int AS done FROM accounts WHERE last_queue_status = 'completed'`);
      if (done >= accounts) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const pipelineSeconds = (performance.now() - started) / 1000;
    report(`account updates (${accounts} accounts, concurrency ${concurrency})`, [
      { case: 'baseline: platform reads only', seconds: fetchSeconds.toFixed(2), perSecond: (accounts / fetchSeconds).toFixed(1) },
      { case: 'queue → worker → PostgreSQL', seconds: pipelineSeconds.toFixed(2), perSecond: (accounts / pipelineSeconds).toFixed(1) },
      { ratio: `${(pipelineSeconds / fetchSeconds).toFixed(2)}x the baseline time` },
    ]);
  } finally {
    await worker.close();
    await env.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
