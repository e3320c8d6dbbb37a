/**
 * The child of rebuildInTwoProcesses (rebuild-processes.ts): receives the configuration and the keepers to rebuild
 * over IPC, rebuilds them in a worker context of its own, reports a failure back and exits.
 */
import 'reflect-metadata';
import { AppConfig } from '../config/app-config';
import { rebuildDerivedState } from '../derived/derived-state';
import { rebuildContext } from './rebuild-processes';

process.once('message', (message: { config: AppConfig; only: string[] }) => {
  void (async () => {
    try {
      const app = await rebuildContext(message.config);
      try {
        await rebuildDerivedState(app, message.only);
      } finally {
        await app.close();
      }
      process.exit(0);
    } catch (error) {
      process.send?.({ error: error instanceof Error ? error.message : String(error) }, () => process.exit(1));
    }
  })();
});
