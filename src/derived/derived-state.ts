/**
 * Derived state: everything the service keeps *beside* the rows the update worker writes, so that reads stay flat
 * at millions of accounts — maintained totals, per-badge holder statistics, the rank engine's sorted sets.
 *
 * Each keeper of derived state is a provider marked with `@DerivedState('name')` and implementing
 * `DerivedStateKeeper`: it keeps its state in step with every update, and can rebuild it from PostgreSQL alone
 * (after a bulk seed, a restore or a Redis flush). `rebuildDerivedState` finds every keeper in an application
 * context and rebuilds them, two at a time.
 */
import { INestApplicationContext, Logger } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';

export interface DerivedStateKeeper {
  /** Recomputes the whole derived state from PostgreSQL, set-based; safe to run while the service serves. */
  rebuild(): Promise<void>;
}

/** Marks a provider as a keeper of derived state; the name shows in logs and the CLI. */
export const DerivedState = DiscoveryService.createDecorator<string>();

/** Every keeper of derived state registered in `app`, by name. */
export function derivedStateKeepers(app: INestApplicationContext): Map<string, DerivedStateKeeper> {
  const discovery = app.get(DiscoveryService);
  const keepers = new Map<string, DerivedStateKeeper>();
  for (const wrapper of discovery.getProviders({ metadataKey: DerivedState.KEY })) {
    const name = discovery.getMetadataByDecorator(DerivedState, wrapper);
    if (name && wrapper.instance) keepers.set(name, wrapper.instance as DerivedStateKeeper);
  }
  return keepers;
}

/**
 * Keepers rebuilt at once: one overlaps its round trips with the other's work (both share this process's one thread,
 * so the gain is modest; the seed uses a second process: src/seed/rebuild-processes.ts).
 */
const REBUILDS_AT_ONCE = 2;

/**
 * Rebuilds every keeper's state from PostgreSQL (or only `only`), two at a time (they are independent: each reads
 * the rows and writes its own state, switched in whole), logging how long each took. Returns the names in discovery order.
 */
export async function rebuildDerivedState(app: INestApplicationContext, only?: string[]): Promise<string[]> {
  const logger = new Logger('DerivedState');
  const queue = [...derivedStateKeepers(app)].filter(([name]) => !only || only.includes(name));
  const pending = [...queue];
  const worker = async () => {
    for (let next = pending.shift(); next; next = pending.shift()) {
      const [name, keeper] = next;
      const started = Date.now();
      await keeper.rebuild();
      logger.log(`rebuilt ${name} in ${Date.now() - started} ms`);
    }
  };
  await Promise.all(Array.from({ length: REBUILDS_AT_ONCE }, worker));
  return queue.map(([name]) => name);
}
