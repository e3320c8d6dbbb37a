import { INestApplication } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { CatalogueChange } from '../../src/change-feed/change-entry';
import { ChangeFeed } from '../../src/change-feed/change-feed';
import { ChangeFeedFollower } from '../../src/change-feed/change-feed-follower';

/** Which of the planner's books a write changes, for which apps (none named: a bulk write, every app). */
export interface CatalogueWrite {
  prices?: boolean;
  sets?: boolean;
  appIds?: number[];
}

/**
 * Card sets or quotes written by a test's SQL as their writers write them (AppPricer.store, AppCardSets.refresh): the
 * rows and the change feed's entry in one transaction, then the nudge; resolves once this process's planner books
 * (CardQuoteBook, CardSetBook) have read them.
 */
export async function writeCatalogue(
  app: INestApplication,
  write: CatalogueWrite,
  work: (manager: EntityManager) => Promise<unknown>,
): Promise<void> {
  const feed = app.get(ChangeFeed);
  const payload: CatalogueChange = write.appIds ? { appIds: write.appIds } : {};
  await app.get(DataSource).transaction(async (manager) => {
    await work(manager);
    if (write.prices) await feed.record(manager, { kind: 'card-prices', payload: { ...payload } });
    if (write.sets) await feed.record(manager, { kind: 'card-sets', payload: { ...payload } });
  });
  await feed.nudge();
  await app.get(ChangeFeedFollower).settled();
}
