import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { basename, dirname, join, posix } from 'node:path';

/**
 * A Docker build without a Docker engine, for CI: follows a Dockerfile's instructions on the file system, taking
 * the COPY sources from the build context as `.dockerignore` filters it, so a test can run what the image would
 * hold. What needs the network is stood in for: `npm ci` links the checkout's node_modules, `npm prune --omit=dev`
 * keeps only the production packages of package-lock.json at the top level (what dist/ can require). Any other
 * instruction or form fails, so the Dockerfile cannot drift from what this follows.
 */

export interface Instruction {
  keyword: string;
  args: string;
}

/** Instructions in order; comments and blank lines dropped, `\` continuations joined. */
export function parseDockerfile(text: string): Instruction[] {
  const joined = text.replace(/\\\r?\n/g, ' ');
  return joined
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

/** `.dockerignore` as Docker applies it: in order, the last matching pattern wins, `!` re-includes. */
export class DockerIgnore {
  private readonly rules: { exclude: boolean; pattern: RegExp }[];

  constructor(text: string) {
    this.rules = text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => {
        const exclude = !line.startsWith('!');
        const pattern = posix.normalize((exclude ? line : line.slice(1)).trim().replace(/^\/+/, ''));
        return { exclude, pattern: DockerIgnore.toRegExp(pattern) };
      });
  }

  /** Go's filepath.Match (`*`, `?`) plus `**` for any number of directories; classes are not needed here. */
  private static toRegExp(pattern: string): RegExp {
    if (/[[\]\\]/.test(pattern)) throw new Error(`.dockerignore pattern not supported by this check: ${pattern}`);
    let source = '';
    for (let i = 0; i < pattern.length; i++) {
      const char = pattern[i];
      if (pattern.startsWith('**/', i)) {
        source += '(?:.*/)?';
        i += 2;
      } else if (pattern.startsWith('**', i)) {
        source += '.*';
        i += 1;
      } else if (char === '*') source += '[^/]*';
      else if (char === '?') source += '[^/]';
      else source += char.replace(/[.+^${}()|]/g, '\\$&');
    }
    return new RegExp(`^${source}$`);
  }

  /** Whether a context path (`src/main.ts`) is left out; a pattern matching a parent directory matches it too. */
  excludes(path: string): boolean {
    const parts = posix.normalize(path).split('/');
    const candidates = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    let excluded = false;
    for (const rule of this.rules) if (candidates.some((candidate) => rule.pattern.test(candidate))) excluded = rule.exclude;
    return excluded;
  }
}

export interface BuiltImage {
  /** The final stage's WORKDIR, holding what the image holds there. */
  root: string;
  cmd: string[];
  expose: number[];
  env: Record<string, string>;
  /** Every file the context contributed, as context paths. */
  contextFiles: string[];
}

const WORKDIR = '/app';

/** Files under `path` (relative to `context`), skipping those .dockerignore leaves out. */
function contextFilesUnder(context: string, path: string, ignore: DockerIgnore): string[] {
  const full = join(context, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return ignore.excludes(path) ? [] : [path];
  return readdirSync(full).flatMap((entry) => contextFilesUnder(context, posix.join(path, entry), ignore));
}

function stagePath(stageRoot: string, path: string): string {
  const absolute = path.startsWith('/') ? posix.normalize(path) : posix.join(WORKDIR, path);
  if (absolute !== WORKDIR && !absolute.startsWith(`${WORKDIR}/`)) throw new Error(`path outside ${WORKDIR}: ${path}`);
  return join(stageRoot, absolute.slice(WORKDIR.length));
}

/** `npm prune --omit=dev`: a node_modules whose top level links only the lock file's production packages. */
function pruneDevDependencies(stageRoot: string): void {
  const lock = JSON.parse(readFileSync(join(stageRoot, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; link?: boolean }>;
  };
  const modules = join(stageRoot, 'node_modules');
  // The tree `npm ci` stood in for; a pruned package still resolves its own dependencies from there.
  const installed = realpathSync(modules);
  rmSync(modules, { force: true });
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (!/^node_modules\/(@[^/]+\/)?[^/]+$/.test(key) || entry.dev || entry.link) continue;
    const name = key.slice('node_modules/'.length);
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(join(installed, name), join(modules, name));
  }
}

function run(stageRoot: string, command: string, nodeModules: string): void {
  if (command === 'npm ci') {
    symlinkSync(nodeModules, join(stageRoot, 'node_modules'));
  } else if (command === 'npm prune --omit=dev') {
    pruneDevDependencies(stageRoot);
  } else if (command === 'npm run build') {
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? stageRoot };
    const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: stageRoot, encoding: 'utf8', env });
    if (build.status !== 0) throw new Error(`npm run build failed in the image's build stage:\n${build.stdout}${build.stderr}`);
  } else if (/^mkdir -p \S+$/.test(command)) {
    // A directory the image provides (the image store's, say).
    mkdirSync(stagePath(stageRoot, command.split(' ')[2]), { recursive: true });
  } else if (/^chown [\w:]+ \S+$/.test(command)) {
    // Ownership has no meaning outside a container; the path must still be one the image holds.
    if (!existsSync(stagePath(stageRoot, command.split(' ')[2]))) throw new Error(`RUN ${command}: no such path in the image`);
  } else {
    throw new Error(`RUN ${command}: not a step this check can follow; teach test/support/docker-build.ts`);
  }
}

/**
 * Follows `dockerfile` in `workDir` with `context` as the build context. `nodeModules` is the installed tree that
 * stands in for `npm ci`.
 */
export function buildWithoutDocker(context: string, workDir: string, nodeModules: string): BuiltImage {
  const instructions = parseDockerfile(readFileSync(join(context, 'Dockerfile'), 'utf8'));
  const ignore = new DockerIgnore(existsSync(join(context, '.dockerignore')) ? readFileSync(join(context, '.dockerignore'), 'utf8') : '');
  const stages = new Map<string, string>();
  const image: BuiltImage = { root: '', cmd: [], expose: [], env: {}, contextFiles: [] };
  for (const { keyword, args } of instructions) {
    if (keyword === 'FROM') {
      const [, , name] = args.split(/\s+/); // FROM <base> [AS <name>]
      image.root = join(workDir, `stage-${stages.size}`);
      mkdirSync(image.root, { recursive: true });
      stages.set(name ?? `#${stages.size}`, image.root);
      image.cmd = [];
      image.expose = [];
      image.env = {};
    } else if (keyword === 'WORKDIR') {
      if (args !== WORKDIR) throw new Error(`WORKDIR ${args}: this check follows WORKDIR ${WORKDIR} only`);
    } else if (keyword === 'COPY') {
      const words = args.split(/\s+/);
      const from = words[0].startsWith('--from=') ? words.shift()!.slice('--from='.length) : null;
      if (words.some((word) => word.startsWith('-') || word.startsWith('['))) throw new Error(`COPY ${args}: form not followed`);
      const dest = words.pop()!;
      const intoDirectory = dest.endsWith('/') || words.length > 1;
      for (const source of words) {
        if (from !== null) {
          const stage = stages.get(from);
          if (!stage) throw new Error(`COPY --from=${from}: no such stage`);
          cpSync(stagePath(stage, source), stagePath(image.root, intoDirectory ? posix.join(dest, basename(source)) : dest), {
            recursive: true,
            verbatimSymlinks: true,
          });
          continue;
        }
        const files = contextFilesUnder(context, posix.normalize(source), ignore);
        if (!files.length) throw new Error(`COPY ${source}: not in the build context (missing, or left out by .dockerignore)`);
        const isDirectory = statSync(join(context, source)).isDirectory();
        for (const file of files) {
          const relative = isDirectory ? posix.relative(posix.normalize(source), file) : basename(file);
          const target = isDirectory || intoDirectory ? posix.join(dest, relative) : dest;
          mkdirSync(dirname(stagePath(image.root, target)), { recursive: true });
          cpSync(join(context, file), stagePath(image.root, target));
          image.contextFiles.push(file);
        }
      }
    } else if (keyword === 'RUN') {
      for (const command of args.split('&&').map((part) => part.trim())) run(image.root, command, nodeModules);
    } else if (keyword === 'CMD') {
      image.cmd = JSON.parse(args) as string[];
    } else if (keyword === 'EXPOSE') {
      image.expose = args.split(/\s+/).map(Number);
    } else if (keyword === 'ENV') {
      const [name, ...value] = args.split('=');
      image.env[name] = value.join('=');
    } else if (keyword !== 'USER') {
      throw new Error(`${keyword}: not an instruction this check follows; teach test/support/docker-build.ts`);
    }
  }
  return image;
}
