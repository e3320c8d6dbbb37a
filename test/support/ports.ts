import { createServer } from 'node:net';

/**
 * A port the OS has just handed out and nothing listens on now. Tests that start a process on a fixed port take
 * theirs from here: a random number in a fixed range can be a port another suite's server got from the OS (whose
 * 404 to `/health` then looks like a service that never became healthy).
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
