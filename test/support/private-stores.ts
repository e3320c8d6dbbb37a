/**
 * Stores a test may break: a redis-server of its own (killed and started again, empty, on the same port) and a TCP
 * proxy to the tests' PostgreSQL server (closed: every connection dropped and new ones refused; opened again on the
 * same port). The shared servers themselves are never touched.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createConnection, createServer, Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { pgAddress } from './stores';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A private redis-server, without persistence: stopped with SIGKILL, it starts again empty. */
export class PrivateRedis {
  private readonly pidFile = join(tmpdir(), `bst-redis-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.pid`);
  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  start(): void {
    execFileSync('redis-server', [
      '--port',
      String(this.port),
      '--save',
      '',
      '--appendonly',
      'no',
      '--maxmemory-policy',
      'noeviction',
      '--daemonize',
      'yes',
      '--pidfile',
      this.pidFile,
    ]);
  }

  /** Starts it and waits until it answers. */
  async startReady(): Promise<void> {
    this.start();
    const client = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      for (let tries = 0; ; tries++) {
        try {
          if (client.status !== 'ready') await client.connect();
          await client.ping();
          return;
        } catch (error) {
          if (tries > 100) throw error;
          client.disconnect();
          await sleep(50);
        }
      }
    } finally {
      client.disconnect();
    }
  }

  async stop(): Promise<void> {
    if (!existsSync(this.pidFile)) return;
    const pid = Number(readFileSync(this.pidFile, 'utf8'));
    process.kill(pid, 'SIGKILL');
    while (isAlive(pid)) await sleep(20);
    rmSync(this.pidFile, { force: true });
  }
}

/** A TCP proxy to the tests' PostgreSQL: closing it is PostgreSQL going away, open connections included. */
export class PostgresProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = createConnection(pgAddress().port, pgAddress().host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => (client.destroy(), upstream.destroy()));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}
