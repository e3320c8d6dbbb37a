import { Client } from 'pg';

/**
 * Creates the database named in `databaseUrl` when it does not exist yet, so a newcomer's first `npm start`
 * works on a bare PostgreSQL. Connects to the server's `postgres` maintenance database to do it. True when this
 * call created it.
 */
export async function ensureDatabase(databaseUrl: string, template?: string): Promise<boolean> {
  const target = new URL(databaseUrl);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!/^[a-zA-Z0-9_]+$/.test(name)) throw new Error(`database name "${name}" must match ^[a-zA-Z0-9_]+$`);
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  // Bounded, so an address that drops packets fails boot in seconds instead of the OS's minutes.
  const client = new Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
      return true;
    } catch (error) {
      // Another process may have created it between our check and our CREATE.
      if ((error as { code?: string }).code !== '42P04') throw error;
      return false;
    }
  } finally {
    await client.end();
  }
}

/** Drops a database if it exists (test harness only). */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const target = new URL(databaseUrl);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
