#!/usr/bin/env node
'use strict';
/**
 * `npm run cli -- <command>`: runs the compiled CLI (dist/src/cli.js), which starts in about a second, instead of
 * compiling src/ through ts-node on every call (5–6 s). When dist/ is missing or older than a source file (a fresh
 * clone, a pull, an edit) it runs `npm run build` first, with its output on stderr so stdout stays the command's.
 * Where there are no sources (the Docker image) dist/ is used as it is.
 *
 * Plain JavaScript on purpose: it must run before anything is compiled.
 */
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, statSync, utimesSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const compiled = join(root, 'dist', 'src', 'cli.js');
// Touched after every build this launcher runs: tsc does not rewrite its outputs when nothing changed, so their
// times cannot tell "built after the last edit" on their own.
const stamp = join(root, 'dist', '.tsbuildinfo.build');
const inputs = ['src', 'scripts', 'ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

/** The newest modification time under `path` (a file or a directory tree), 0 when it does not exist. */
function newestMtime(path) {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs; // a deleted file changes its directory's time
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function isStale() {
  if (!existsSync(compiled)) return true;
  if (!existsSync(join(root, 'src'))) return false; // an image or an install without sources: dist is all there is
  const builtAt = Math.max(newestMtime(stamp), statSync(compiled).mtimeMs);
  return inputs.some((input) => newestMtime(join(root, input)) > builtAt);
}

if (isStale()) {
  process.stderr.write('compiling (dist/ is missing or older than the sources)…\n');
  // npm sets npm_execpath when it runs this script; run the same npm, else whatever `npm` is on PATH.
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm, 'run', '-s', 'build']] : ['npm', ['run', '-s', 'build']];
  const build = spawnSync(command, args, { cwd: root, stdio: ['ignore', 2, 2], shell: !npm && process.platform === 'win32' });
  if (build.status !== 0) {
    process.stderr.write('the build failed; see above\n');
    process.exit(build.status || 1);
  }
  const now = new Date();
  if (existsSync(stamp)) utimesSync(stamp, now, now);
}

require(compiled);
