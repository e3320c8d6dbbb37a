import { buildTemplate } from './support/databases';

export default async function globalSetup(): Promise<void> {
  process.env.TZ = 'UTC';
  await buildTemplate();
}
