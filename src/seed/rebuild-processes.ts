/**
 * # Derived state rebuilt in two processes
 *
 * Rebuilding every keeper is mostly CPU in one Node thread (building Redis commands, parsing rows, collecting
 * garbage), and keepers in one process share that thread. A second process gives the second core to part of them:
 * the board changes build in a forked child (rebuild-child.ts), every other keeper here, at once. At a million
 * accounts the phase takes 55–73 s, the rank engine being the longest keeper (40–60 s); the board changes, ~75 s when
 * the child was given them, now take 5–9 s, yet the rank engine in the child instead measured no better (62–64 s).
 *
 * Neither process builds at boot (withoutBootBuilds): on an empty prefix the first to boot would build everything
 * and the other would wait on its build locks. Used by the seed, whose database nobody serves while it runs.
 */
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ChildProcess, fork } from 'node:child_process';
import { extname, join } from 'node:path';
import { AppConfig } from '../config/app-config';
import { WorkerModule } from '../worker.module';
import { derivedStateKeepers, rebuildDerivedState } from '../derived/derived-state';
import { withoutBootBuilds } from '../derived/versioned-redis-state';

/** The keepers the child rebuilds (see the module comment for why these). */
export const CHILD_KEEPERS = ['board-changes'];

/** A worker context in which no keeper builds at boot. */
export function rebuildContext(config: AppConfig): Promise<INestApplicationContext> {
  // abortOnError off: a module graph that cannot be built is the caller's error to report, not a reason to exit.
  return withoutBootBuilds(() =>
    NestFactory.createApplicationContext(WorkerModule.forRoot(config), { logger: ['error', 'warn'], abortOnError: false }),
  );
}

/** Rebuilds every keeper of derived state, CHILD_KEEPERS in a child process; returns every keeper's name. */
export async function rebuildInTwoProcesses(config: AppConfig): Promise<string[]> {
  const child = rebuildInChild(config, CHILD_KEEPERS);
  child.done.catch(() => undefined);
  try {
    const app = await rebuildContext(config);
    try {
      const names = [...derivedStateKeepers(app).keys()];
      await rebuildDerivedState(
        app,
        names.filter((name) => !CHILD_KEEPERS.includes(name)),
      );
      await child.done;
      return names;
    } finally {
      await app.close();
    }
  } catch (error) {
    // A failed rebuild here leaves no child writing behind the caller's back (kill is a no-op once it has exited).
    child.process.kill();
    throw error;
  }
}

function rebuildInChild(config: AppConfig, only: string[]): { process: ChildProcess; done: Promise<void> } {
  // From TypeScript sources (npm run seed, jest) the child needs ts-node too; from dist/ it runs plain JS.
  const file = join(__dirname, `rebuild-child${extname(__filename)}`);
  const execArgv = extname(__filename) === '.ts' ? ['-r', 'ts-node/register/transpile-only'] : [];
  const child = fork(file, [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.send({ config, only });
  const done = new Promise<void>((resolve, reject) => {
    let failure: string | null = null;
    child.on('message', (message: { error?: string }) => (failure = message.error ?? null));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 && !failure ? resolve() : reject(new Error(`rebuilding ${only.join(', ')} failed: ${failure ?? `exit code ${code}`}`)),
    );
  });
  return { process: child, done };
}
