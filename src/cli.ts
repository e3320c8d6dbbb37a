import 'reflect-metadata';
import { exitOnBootFailure } from './boot';
import { runCli } from './cli/program';

/**
 * `npm run cli -- <command>` (compiled: `node dist/src/cli.js <command>`): the operator CLI. The commands are in
 * src/cli/program.ts; a store that cannot be reached or a bad variable ends it like the other entrypoints (one
 * JSON line, exit code 1), a usage error with exit code 2.
 */
exitOnBootFailure(() => runCli(process.argv));
