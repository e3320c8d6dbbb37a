import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { PlatformSnapshotReader } from '../refresh/platform-snapshot';
import { LocationNames } from '../platform/location-names.service';
import { Universe } from '../platform/simulator/universe/universe';
import { AccountHistory, FirstCraft, SeedParameters, TableTexts } from './account-history';
import { CatalogueMessage, CatalogueObservations } from './catalogue-observations';
import { CopyText } from './copy-text';
import { InProcessPlatformClient } from './in-process-platform';
import { SEED_TABLE_NAMES, SeedTable } from './seed-tables';

/** What one chunk of accounts produced: COPY text per table, and what the catalogue and milestones need. */
export interface ChunkResult {
  index: number;
  tables: Record<SeedTable, Uint8Array>;
  rows: Record<SeedTable, number>;
  catalogue: CatalogueMessage;
  firstCrafts: FirstCraft[];
}

export interface ChunkRequest {
  index: number;
  from: number;
  to: number;
}

/**
 * Generates chunks of consecutive accounts. Each generating thread builds its own Universe (the friend graph takes
 * about 1.5 s and 200 MB at a million accounts) and its own in-process platform client.
 */
export class ChunkGenerator {
  private readonly history: AccountHistory;

  constructor(p: SeedParameters) {
    const universe = new Universe({ seed: p.seed, accounts: p.accounts, tickMs: p.tickMs });
    const client = new InProcessPlatformClient(universe);
    this.history = new AccountHistory(universe, client, p, new PlatformSnapshotReader(client, new LocationNames(client)));
  }

  async generate(request: ChunkRequest): Promise<ChunkResult> {
    const texts = Object.fromEntries(SEED_TABLE_NAMES.map((table) => [table, new CopyText()])) as TableTexts;
    const catalogue = new CatalogueObservations();
    const firstCrafts: FirstCraft[] = [];
    for (let accountId = request.from; accountId <= request.to; accountId++)
      await this.history.generate(accountId, texts, catalogue, firstCrafts);
    const rows = Object.fromEntries(SEED_TABLE_NAMES.map((table) => [table, texts[table].rows])) as Record<SeedTable, number>;
    const tables = Object.fromEntries(SEED_TABLE_NAMES.map((table) => [table, texts[table].take()])) as Record<SeedTable, Uint8Array>;
    return { index: request.index, tables, rows, catalogue: catalogue.toMessage(), firstCrafts };
  }
}

/** As a worker thread: answer each chunk request with its result, moving (not copying) the COPY bytes. */
if (!isMainThread && parentPort && (workerData as { seedWorker?: boolean } | null)?.seedWorker) {
  const port = parentPort;
  const generator = new ChunkGenerator((workerData as { parameters: SeedParameters }).parameters);
  port.on('message', (request: ChunkRequest) => {
    generator.generate(request).then(
      (result) =>
        port.postMessage(
          { result },
          Object.values(result.tables).map((bytes) => bytes.buffer as ArrayBuffer),
        ),
      (error: unknown) => port.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
  });
  port.postMessage({ ready: true });
}
