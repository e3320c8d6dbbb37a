import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CORE_SCHEMA, load, mergeTag } from 'js-yaml';
import { withHugePageMalloc } from '../../src/common/lifecycle/huge-pages';
import { API_V8_FLAGS } from '../../src/common/lifecycle/young-generation';
import { loadConfig } from '../../src/config/app-config';
import { dropDatabase } from '../../src/database/ensure-database';
import { BuiltImage, buildWithoutDocker, DockerIgnore } from '../support/docker-build';
import { clearRedisPrefix, REDIS_URL, uniqueName } from '../support/test-app';

const run = promisify(execFile);
const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  ports?: string[];
  env_file?: { path: string; required?: boolean }[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  volumes?: string[];
}
const compose = load(read('docker-compose.yml'), { schema: CORE_SCHEMA.withTags(mergeTag) }) as {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
};
const APP_SERVICES = ['api', 'worker', 'simulator'];
const defaults = loadConfig({});

/** Every variable src/config/app-config.ts reads: the service's whole configuration surface. */
function configVariables(): Set<string> {
  const source = read('src/config/app-config.ts');
  return new Set([...source.matchAll(/\benv(?:\.|,\s*')([A-Z][A-Z0-9_]+)/g)].map((match) => match[1]));
}

/**
 * No Docker engine here: the image is built by following the Dockerfile on the file system (test/support/docker-build.ts)
 * and the compiled CLI is run from the result. docker-compose.yml is read against the code and the Dockerfile.
 */
describe('the Docker image, built without Docker', () => {
  let work: string;
  let image: BuiltImage;
  const inImage = (...args: string[]) =>
    run(process.execPath, args, { cwd: image.root, env: { PATH: process.env.PATH ?? '', ...image.env } });

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'badge-stats-image-'));
    // The build stage compiles the sources it copied, as the Dockerfile's `npm run build` does.
    image = buildWithoutDocker(root, work, join(root, 'node_modules'));
  }, 300_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('should keep secrets, installed and built files, and everything the image does not need out of the context', () => {
    const ignore = new DockerIgnore(read('.dockerignore'));
    for (const path of [
      '.env',
      '.env.local',
      'node_modules/pg/package.json',
      'dist/src/main.js',
      '.git',
      'test/e2e/cli.e2e.spec.ts',
      'README.md',
    ])
      expect({ path, excluded: ignore.excludes(path) }).toEqual({ path, excluded: true });
    for (const path of ['package.json', 'src/main.ts', 'src/database/migrations', 'scripts/cli.js'])
      expect({ path, excluded: ignore.excludes(path) }).toEqual({ path, excluded: false });
    expect(image.contextFiles.filter((file) => /(^|\/)\.env$|\.md$|^(test|dist|node_modules)\//.test(file))).toEqual([]);
  });

  it('should run the compiled CLI, with production dependencies only: --help exits 0, also through npm run cli', async () => {
    expect(existsSync(join(image.root, 'src'))).toBe(false);
    const help = await inImage('dist/src/cli.js', '--help');
    expect(help.stdout).toContain('accounts');
    expect(help.stdout).toContain('api-key');
    // scripts/cli.js (what `npm run cli` runs) uses dist/ as it is when there are no sources.
    const viaNpmScript = await inImage('scripts/cli.js', 'accounts', 'refresh', '--help');
    expect(viaNpmScript.stdout).toContain('Usage: npm run cli -- accounts refresh');
    expect(viaNpmScript.stderr).not.toContain('compiling');
    // A runtime import of a devDependency would fail here: the image's node_modules holds production packages only.
    expect(existsSync(join(image.root, 'node_modules', 'jest'))).toBe(false);
    expect(existsSync(join(image.root, 'node_modules', 'commander'))).toBe(true);
  }, 60_000);

  it('should mint an API key from the image on a new database, created and migrated from dist/', async () => {
    const name = uniqueName('image');
    const env = {
      PATH: process.env.PATH ?? '',
      ...image.env,
      DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${name}`,
      REDIS_URL,
      REDIS_PREFIX: `test:${name}`,
    };
    try {
      const created = await run(process.execPath, ['dist/src/cli.js', 'api-key', 'create', '--account', '1'], { cwd: image.root, env });
      expect(created.stdout.trim().split('\n').pop()).toMatch(/^sk_[0-9a-f]{12}_/);
    } finally {
      await dropDatabase(env.DATABASE_URL);
      await clearRedisPrefix(env.REDIS_PREFIX);
    }
  }, 120_000);

  it('should run every compose service’s command, and the image’s own, from files the image holds', () => {
    for (const name of APP_SERVICES) {
      const [node, ...rest] = compose.services[name].command ?? [];
      const file = rest.pop() ?? '';
      // Only the API runs with V8 options of its own (its young generation, young-generation.ts).
      const flags = name === 'api' ? API_V8_FLAGS : [];
      expect({ name, node, flags: rest, file, exists: existsSync(join(image.root, file)) }).toEqual({
        name,
        node: 'node',
        flags,
        file,
        exists: true,
      });
    }
    expect(image.cmd).toEqual(compose.services.api.command);
    expect(read('README.md')).toContain('docker compose run --rm api node dist/src/cli.js');
  });

  it('should build one image, once, for the api, the worker and the simulator', () => {
    const builders = Object.entries(compose.services).filter(([, service]) => service.build);
    expect(builders.map(([name]) => name)).toEqual(['api']);
    for (const name of APP_SERVICES)
      expect({ name, image: compose.services[name].image }).toEqual({ name, image: compose.services.api.image });
  });

  it("should start every process with malloc's huge pages, as npm start starts the API and the worker", () => {
    expect(image.env.GLIBC_TUNABLES).toBe(withHugePageMalloc({}).GLIBC_TUNABLES);
  });

  it('should honour .env and set only variables the service reads', () => {
    const known = configVariables();
    const text = read('docker-compose.yml');
    const substituted = [...text.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((match) => match[1]);
    expect(substituted.filter((name) => !known.has(name))).toEqual([]);
    for (const name of APP_SERVICES) {
      const service = compose.services[name];
      expect(service.env_file).toEqual([{ path: '.env', required: false }]);
      expect(Object.keys(service.environment ?? {}).filter((variable) => !known.has(variable))).toEqual([]);
      // Each process reaches the containers' stores, whatever a .env written for this machine says.
      expect(service.environment).toMatchObject({
        DATABASE_URL: expect.stringContaining('@postgres:5432/'),
        REDIS_URL: 'redis://redis:6379',
      });
    }
    // .env.example documents exactly what the service reads (NODE_ENV is the image's, not a setting).
    const documented = [...read('.env.example').matchAll(/^([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]);
    expect(documented.sort()).toEqual([...known].filter((name) => name !== 'NODE_ENV').sort());
  });

  it('should publish the ports the processes listen on, and the stores on this machine only, where npm start looks', () => {
    expect(compose.services.api.ports).toEqual([`\${PORT:-${defaults.port}}:\${PORT:-${defaults.port}}`]);
    expect(image.expose).toEqual(expect.arrayContaining([defaults.port, defaults.simulator.port]));
    const database = new URL(defaults.databaseUrl);
    const redis = new URL(defaults.redisUrl);
    expect(compose.services.postgres.ports).toEqual([`${database.hostname}:${database.port || 5432}:5432`]);
    expect(compose.services.redis.ports).toEqual([`${redis.hostname}:${redis.port || 6379}:6379`]);
    // The same database name inside and outside the containers.
    expect(compose.services.postgres.environment?.POSTGRES_DB).toBe(database.pathname.slice(1));
    expect(compose.services.api.environment?.DATABASE_URL).toMatch(new RegExp(`${database.pathname}$`));
    expect(compose.services.api.environment?.SIMULATOR_URL).toBe(`http://simulator:\${SIMULATOR_PORT:-${defaults.simulator.port}}`);
    expect(compose.services.simulator.environment?.SIMULATOR_HOST).toBe('0.0.0.0');
    // Where a CLI run from a clone looks for the simulator by default.
    const simulatorPort = `\${SIMULATOR_PORT:-${defaults.simulator.port}}`;
    expect(compose.services.simulator.ports).toEqual([`127.0.0.1:${simulatorPort}:${simulatorPort}`]);
    expect(defaults.platform.apiUrl).toBe(`http://127.0.0.1:${defaults.simulator.port}`);
  });

  it('should keep Redis on disk, append-only and never evicting, as the queue and the view counts need', () => {
    const command = compose.services.redis.command ?? [];
    const option = (name: string) => command[command.indexOf(`--${name}`) + 1];
    expect(command[0]).toBe('redis-server');
    expect(option('appendonly')).toBe('yes');
    expect(option('appendfsync')).toBe('everysec');
    // BullMQ's requirement: an evicted job key is a job lost.
    expect(option('maxmemory-policy')).toBe('noeviction');
    const [volume, path] = (compose.services.redis.volumes ?? [''])[0].split(':');
    expect(path).toBe('/data');
    expect(Object.keys(compose.volumes ?? {})).toContain(volume);
  });

  it('should health-check every service something waits for', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        if (condition === 'service_healthy')
          expect({ name, dependency, healthcheck: Boolean(compose.services[dependency].healthcheck) }).toEqual({
            name,
            dependency,
            healthcheck: true,
          });
      }
    }
    expect(compose.services.api.healthcheck?.test.join(' ')).toContain(`process.env.PORT||${defaults.port})+'/health'`);
  });
});
