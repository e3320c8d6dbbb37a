import { buildTemplate } from './support/databases';
import { compileEntrypoints } from './support/entrypoints';

export default async function globalSetup(): Promise<void> {
  process.env.TZ = 'UTC';
  compileEntrypoints();
  await buildTemplate();
}
