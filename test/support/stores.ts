/**
 * The PostgreSQL server and Redis the tests use: those of DATABASE_URL and REDIS_URL when set (as for the
 * service), else the local defaults. Only DATABASE_URL's server is used, never its database: every run builds its
 * own template and every test file clones its own database from it; every file also has its own Redis prefix.
 */
const DEFAULT_POSTGRES = 'postgres://postgres@127.0.0.1:5432';

/**
 * By default the tests keep to logical database 1 of the local Redis. The service SCANs the whole keyspace of its
 * database when it boots, stops and rebuilds (unlinkMatching), as does clearRedisPrefix after each file: in db 0 of a
 * Redis that also holds a benchmark's millions of keys, that was 6 walks of the whole keyspace, 6–10 s, per test file.
 * Keys are still prefixed per file; pub/sub channels span databases and are prefixed too.
 */
export const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379/1';

/** The server part of DATABASE_URL (user, password, host, port, query), without a database. */
export const PG_SERVER = (() => {
  const url = new URL(process.env.DATABASE_URL || DEFAULT_POSTGRES);
  url.pathname = '';
  return url.toString().replace(/\/(\?|$)/, '$1');
})();

/** The URL of database `name` on the tests' server. */
export function databaseUrl(name: string, server: string = PG_SERVER): string {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The tests' PostgreSQL host and port, for a test that stands a proxy in front of it. */
export function pgAddress(): { host: string; port: number } {
  const url = new URL(PG_SERVER);
  return { host: url.hostname || '127.0.0.1', port: Number(url.port || 5432) };
}

/** The same server reached through another address (a proxy on this machine). */
export function viaAddress(url: string, host: string, port: number): string {
  const out = new URL(url);
  out.hostname = host;
  out.port = String(port);
  return out.toString();
}
