/**
 * The service's entrypoints (src/main.ts, worker.ts, start.ts, cli.ts) as the e2e suites start them, in processes of
 * their own: from the JavaScript that global-setup compiles once from src/ into `.test-dist/`, as `npm run build`
 * compiles dist/ (without the type check, which `npm test` has run before jest). Under ts-node every such process
 * compiled the same sources again: a CLI call took 6.8 s instead of 1.6 on a 2-core machine, and the CLI suites alone
 * make a dozen.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const COMPILED = join(ROOT, '.test-dist');

/**
 * Compiles src/ into a fresh .test-dist/ (~8 s). Called by global-setup. Never incremental: tsc leaves the output of a
 * deleted source behind, and a stale migration there would still be run.
 */
export function compileEntrypoints(): void {
  rmSync(COMPILED, { recursive: true, force: true });
  const tsc = require.resolve('typescript/bin/tsc');
  const options = ['--outDir', COMPILED, '--incremental', 'false', '--noCheck'];
  execFileSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json'), ...options], { cwd: ROOT, stdio: 'inherit' });
}

/** The compiled form of `src/<file>` (`main.ts`, `cli.ts`, …), to run with `node`. */
export function entrypoint(file: string): string {
  return join(COMPILED, 'src', file.replace(/\.ts$/, '.js'));
}

/** The environment a running process was started with, from /proc. */
export function environOf(pid: number | string): Record<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
}

/** A running process's command line, its arguments joined by spaces ('' once it is gone). */
export function commandOf(pid: number | string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}
