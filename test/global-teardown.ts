import { dropTemplate } from './support/databases';

export default async function globalTeardown(): Promise<void> {
  await dropTemplate();
}
