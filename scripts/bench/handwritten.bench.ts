import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { numberFlag, textFlag } from './harness';
import { sideBySide, Tree } from './side-by-side.bench';

/**
 * `npm run bench:handwritten -- [--variants express-adapter,dataloader-batches] [--accounts 100000 --database bench_scale_100000]
 *   [--only getInfo,xp top 10,rank 50000 (GET /health always runs)] [side-by-side's flags: --rounds --requests --seconds …]`
 *
 * docs/architecture.md "Hand-written, and why": each hand-written part on a request path against the library it
 * replaces. Each variant is a patch in scripts/bench/handwritten/ that puts the library back in place of the part
 * (`<name>.patch`, against the commit that deleted nothing yet: regenerate it with `git diff` when it no longer
 * applies). For each, a detached git worktree of HEAD is made beside this one (`../bench-variant-<name>`, reused
 * and reset on later runs), the patch applied and node_modules linked; then this tree (committed: the variants are
 * HEAD plus their patch, so uncommitted changes here would be measured against none) and every variant serve at
 * once, and bench:side-by-side measures the scale bars' reads (`/health`, `account.getInfo`, the boards) against
 * each in alternating rounds over a seeded population (`npm run seed`). A build flag or an environment switch in the
 * service would have cost a branch on every request, or kept both code paths in src/; two trees cost nothing.
 */
const ROOT = join(__dirname, '..', '..');
const PATCHES = join(__dirname, 'handwritten');

function variantTree(name: string): Tree {
  const dir = join(ROOT, '..', `bench-variant-${name}`);
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  if (!existsSync(dir)) git(ROOT, 'worktree', 'add', '--quiet', '--detach', dir, 'HEAD');
  git(dir, 'checkout', '--quiet', '--detach', '--force', git(ROOT, 'rev-parse', 'HEAD').toString().trim());
  git(dir, 'reset', '--quiet', '--hard');
  git(dir, 'clean', '-fdq', '-e', 'node_modules', '-e', 'dist');
  git(dir, 'apply', join(PATCHES, `${name}.patch`));
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return { label: name, root: dir };
}

async function main(): Promise<void> {
  const all = readdirSync(PATCHES)
    .filter((file) => file.endsWith('.patch'))
    .map((file) => basename(file, '.patch'));
  const names = textFlag('variants')?.split(',') ?? all;
  for (const name of names) if (!all.includes(name)) throw new Error(`no scripts/bench/handwritten/${name}.patch`);
  const accounts = numberFlag('accounts', 100_000);
  await sideBySide({
    trees: [{ label: 'this', root: ROOT }, ...names.map(variantTree)],
    database: textFlag('database') ?? `bench_scale_${accounts}`,
    accounts,
    only: (textFlag('only') ?? 'getInfo,xp top 10,rank 50000').split(','),
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
