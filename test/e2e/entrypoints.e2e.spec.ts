import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { startTestApp, TestContext } from '../support/test-app';

/** The API entrypoint as its own process, with the simulator it embeds when no platform key is set. */
describe('the API process', () => {
  let ctx: TestContext;
  let api: ChildProcess;
  const port = 41000 + Math.floor(Math.random() * 2000);
  const simulatorPort = port + 2500;

  beforeAll(async () => {
    // Only for its fresh database and Redis prefix; the process under test opens its own connections.
    ctx = await startTestApp('entry');
  });
  afterAll(async () => {
    if (api?.exitCode === null) api.kill('SIGKILL');
    await ctx.close();
  });

  it('should serve health, docs and the embedded simulator, and stop cleanly on SIGTERM', async () => {
    const root = join(__dirname, '..', '..');
    api = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', join(root, 'src', 'main.ts')], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(port),
        SIMULATOR_PORT: String(simulatorPort),
        DATABASE_URL: ctx.config.databaseUrl,
        REDIS_PREFIX: ctx.config.redisPrefix,
        LOG_LEVEL: 'warn',
      },
      stdio: 'ignore',
    });
    const deadline = Date.now() + 45_000;
    let healthy = false;
    while (!healthy && Date.now() < deadline) {
      healthy = await fetch(`http://127.0.0.1:${port}/health`).then(
        (res) => res.ok,
        () => false,
      );
      if (!healthy) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(healthy).toBe(true);
    expect((await fetch(`http://127.0.0.1:${port}/docs/`)).status).toBe(200);
    const summaries = await fetch(`http://127.0.0.1:${simulatorPort}/ISteamUser/GetPlayerSummaries/v2/?steamids=76561197960265729`);
    const body = (await summaries.json()) as { response: { players: unknown[] } };
    expect(body.response.players).toHaveLength(1);
    // Nest closes the application, then re-raises the signal: a prompt exit by SIGTERM is a clean stop.
    const exited = new Promise((resolve) => api.once('exit', (code, signal) => resolve(code ?? signal)));
    api.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('timeout'), 10_000))]);
    expect([0, 'SIGTERM']).toContain(code);
  }, 70_000);
});
