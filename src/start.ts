import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';

/**
 * `npm start`: runs the API and the worker as two processes, the way they are deployed, under one command.
 * A signal is forwarded to both; if either exits on its own the other is stopped too.
 */
const children = new Map<string, ChildProcess>();
let stopping = false;

function stopAll(signal: NodeJS.Signals): void {
  stopping = true;
  for (const child of children.values()) if (child.exitCode === null) child.kill(signal);
}

for (const [name, file] of [
  ['api', 'main.js'],
  ['worker', 'worker.js'],
] as const) {
  const child = fork(join(__dirname, file), process.argv.slice(2), { stdio: 'inherit' });
  children.set(name, child);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping) {
      process.stderr.write(`${name} exited (${signal ?? code}); stopping the others\n`);
      process.exitCode = code || 1;
      stopAll('SIGTERM');
    }
    if (children.size === 0) process.exit();
  });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stopAll(signal));
