import { once } from 'node:events';
import { Writable } from 'node:stream';
import { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The sort memory of each index build (see restoreStructures). */
const INDEX_SORT_MEMORY = '64MB';

/** A secondary index or a foreign key, as PostgreSQL prints its definition (what the migrations created). */
export interface Structure {
  kind: 'index' | 'foreign key';
  table: string;
  name: string;
  definition: string;
}

/** Secondary indexes (not backing a constraint) and foreign keys of `tables`, in a stable order. */
export async function secondaryStructures(client: Client, tables: string[]): Promise<Structure[]> {
  const { rows: indexes } = await client.query<{ table: string; name: string; definition: string }>(
    `SELECT t.relname AS table, x.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_class x ON x.oid = i.indexrelid
      WHERE t.relnamespace = current_schema()::regnamespace AND t.relname = ANY($1) AND NOT i.indisprimary
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
      ORDER BY t.relname, x.relname`,
    [tables],
  );
  const { rows: keys } = await client.query<{ table: string; name: string; definition: string }>(
    `SELECT t.relname AS table, k.conname AS name, pg_get_constraintdef(k.oid) AS definition
       FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid
      WHERE k.contype = 'f' AND t.relnamespace = current_schema()::regnamespace AND t.relname = ANY($1)
      ORDER BY t.relname, k.conname`,
    [tables],
  );
  return [...indexes.map((row) => ({ kind: 'index' as const, ...row })), ...keys.map((row) => ({ kind: 'foreign key' as const, ...row }))];
}

/**
 * Drops them in one transaction. Maintaining a secondary index row by row costs a random write per row once the
 * index outgrows the buffer cache, and a foreign key costs a lookup and a row lock on `accounts` per row; both are
 * rebuilt far faster in one sorted pass after the load.
 */
export async function dropStructures(client: Client, structures: Structure[]): Promise<void> {
  await client.query('BEGIN');
  try {
    for (const s of structures.filter((x) => x.kind === 'foreign key'))
      await client.query(`ALTER TABLE ${quoteIdent(s.table)} DROP CONSTRAINT ${quoteIdent(s.name)}`);
    for (const s of structures.filter((x) => x.kind === 'index')) await client.query(`DROP INDEX ${quoteIdent(s.name)}`);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

/**
 * Recreates them from their own definitions (indexes, then foreign keys, since validating one scans its table: each
 * as many at a time as there are clients) and checks that the result equals what was dropped.
 */
export async function restoreStructures(clients: Client[], structures: Structure[], tables: string[]): Promise<void> {
  const indexes = structures.filter((s) => s.kind === 'index');
  const work = async (client: Client) => {
    // A small sort memory builds faster: the 17 indexes and 8 keys of a million accounts took 82–90 s with 64 MB
    // (PostgreSQL's default) against 121–128 s with 512 MB, the largest index alone 26–29 s against 42–50 s
    // (docs/performance-history.md). Why was not measured (a guess: one large in-memory sort touches memory less locally
    // than the merge of shorter sorted runs).
    await client.query(`SET maintenance_work_mem = '${INDEX_SORT_MEMORY}'`);
    for (let next = indexes.shift(); next; next = indexes.shift()) await client.query(next.definition);
  };
  await Promise.all(clients.map(work));
  // Each key is added unchecked (instant), then validated: a validation scans its table holding only a lock that
  // lets the others' run beside it, so they share the connections as the indexes do.
  const keys = structures.filter((x) => x.kind === 'foreign key');
  for (const s of keys)
    await clients[0].query(`ALTER TABLE ${quoteIdent(s.table)} ADD CONSTRAINT ${quoteIdent(s.name)} ${s.definition} NOT VALID`);
  const validate = async (client: Client) => {
    for (let next = keys.shift(); next; next = keys.shift())
      await client.query(`ALTER TABLE ${quoteIdent(next.table)} VALIDATE CONSTRAINT ${quoteIdent(next.name)}`);
  };
  await Promise.all(clients.map(validate));
  const render = (list: Structure[]) => list.map((s) => `${s.kind} ${s.name}: ${s.definition}`).sort();
  const now = render(await secondaryStructures(clients[0], tables));
  const before = render(structures);
  if (now.join('\n') !== before.join('\n'))
    throw new Error(`indexes and keys differ after the load:\nexpected\n${before.join('\n')}\nfound\n${now.join('\n')}`);
}

export interface CopyTarget {
  table: string;
  columns: readonly string[];
  /**
   * COPY … FREEZE writes rows already frozen, sparing the first reader of a fresh 30 GB table a rewrite of every
   * page to set hint bits. PostgreSQL allows it only for a table truncated in the same transaction, so only for
   * tables no foreign key points at (and the seed only loads tables it has checked are empty).
   */
  freeze: boolean;
}

/**
 * One COPY … FROM STDIN per table, each on its own connection and in its own transaction, fed as chunks arrive.
 * Nothing is committed until every table's COPY has finished, so a failed seed leaves no partial rows.
 */
export class CopyLoad {
  private readonly streams = new Map<string, { client: Client; stream: Writable }>();
  private failure: Error | null = null;

  static async open(databaseUrl: string, targets: CopyTarget[]): Promise<CopyLoad> {
    const load = new CopyLoad();
    try {
      for (const target of targets) {
        const client = new Client({ connectionString: databaseUrl, application_name: 'badge-stats-seed' });
        await client.connect();
        load.streams.set(target.table, { client, stream: null as unknown as Writable });
        await client.query('BEGIN');
        if (target.freeze) await client.query(`TRUNCATE ${quoteIdent(target.table)}`);
        const columns = target.columns.map(quoteIdent).join(', ');
        const stream = client.query(
          copyFrom(`COPY ${quoteIdent(target.table)} (${columns}) FROM STDIN${target.freeze ? ' WITH (FREEZE)' : ''}`),
        );
        stream.on('error', (error: Error) => (load.failure ??= new Error(`COPY ${target.table}: ${error.message}`)));
        load.streams.get(target.table)!.stream = stream;
      }
    } catch (error) {
      await load.abort();
      throw error;
    }
    return load;
  }

  /** Writes COPY text; waits while PostgreSQL is behind, so generation never runs far ahead of the database. */
  async write(table: string, bytes: Uint8Array): Promise<void> {
    if (this.failure) throw this.failure;
    if (!bytes.length) return;
    const { stream } = this.streams.get(table)!;
    // events.once rejects when the stream errors while we wait.
    if (!stream.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))) await once(stream, 'drain');
    if (this.failure) throw this.failure;
  }

  /** Ends every COPY, then commits every transaction. */
  async finish(): Promise<void> {
    try {
      await Promise.all(
        [...this.streams.values()].map(async ({ stream }) => {
          stream.end();
          await once(stream, 'finish');
        }),
      );
      if (this.failure) throw this.failure;
      for (const { client } of this.streams.values()) await client.query('COMMIT');
    } finally {
      await Promise.all([...this.streams.values()].map(({ client }) => client.end().catch(() => undefined)));
      this.streams.clear();
    }
  }

  async abort(): Promise<void> {
    for (const { client, stream } of this.streams.values()) {
      stream?.destroy();
      await client.end().catch(() => undefined);
    }
    this.streams.clear();
  }
}
