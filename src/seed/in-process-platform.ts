import { PlatformClient } from '../platform/client/platform-client';
import { PlatformHttp, type CallOptions, type HttpOutcome, type QueryValue } from '../platform/client/platform-http';
import { PlatformHttpError } from '../platform/client/platform.errors';
import { toInventoryItem } from '../platform/client/platform.mappers';
import type { InventoryResult, RawInventoryDescription } from '../platform/client/platform.types';
import { route } from '../platform/simulator/handlers/router';
import { Universe } from '../platform/simulator/universe/universe';

/** Host of the in-process "platform": never resolved, only parsed by the simulator's router. */
const ORIGIN = 'http://simulator.in-process';

/**
 * PlatformHttp without the network: the simulator's router answers in the same thread, at the tick the seed is
 * generating. The URL is still built by PlatformHttp and routed by the simulator, and the client's mappers get the
 * handler's JSON value (equal to the parsed wire JSON), so they see exactly what they would see over HTTP.
 */
class InProcessHttp extends PlatformHttp {
  constructor(
    private readonly universe: Universe,
    private readonly tick: () => number,
  ) {
    super({ apiKey: null, timeoutMs: 1000, maxRetries: 0, retryBaseMs: 0, budget: null });
  }

  override async get(
    baseUrl: string,
    path: string,
    query: Record<string, QueryValue>,
    withKey: boolean,
    { format = 'json' }: CallOptions = {},
  ): Promise<HttpOutcome> {
    // buildUrl is private to PlatformHttp; reusing it keeps parameter encoding (booleans as 1/0, no key) identical.
    const url = (this as unknown as { buildUrl: (...args: unknown[]) => string }).buildUrl(baseUrl, path, query, withKey);
    const response = route(this.universe, this.tick(), null, 'GET', url);
    if (response.status !== 200 && response.status !== 401 && response.status !== 403)
      throw new PlatformHttpError(response.status, `GET ${path}`);
    if (format === 'text') return { status: response.status, body: response.body };
    // A JSON answer's value as the handler built it: what JSON.parse would return, without rendering and parsing it.
    if (response.value !== undefined) return { status: response.status, body: response.value };
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      body = undefined;
    }
    return { status: response.status, body };
  }
}

/**
 * The real PlatformClient over the in-process simulator, so PlatformSnapshotReader reads a seeded account
 * exactly as the worker reads it over HTTP. Only the inventory takes a shortcut (see getInventory).
 */
export class InProcessPlatformClient extends PlatformClient {
  /** The simulated instant every answer describes; the seed moves it from one update run to the next. */
  tick = 0;
  /** Earlier runs of an account need no inventory: the last run's replaces it, and inventories never change. */
  skipInventory = false;
  private readonly descriptions = new Map<string, RawInventoryDescription>();

  constructor(private readonly universe: Universe) {
    super({ apiUrl: ORIGIN, communityUrl: ORIGIN, apiKey: null, timeoutMs: 1000, maxRetries: 0, retryBaseMs: 0, budget: null });
    // PlatformClient builds its transport itself; replacing it keeps every request, status check and mapper of the client.
    Object.defineProperty(this, 'http', { value: new InProcessHttp(universe, () => this.tick) });
  }

  /**
   * The community inventory, already folded by class. An account holds ~200 assets on average (up to 12,000), and
   * mapping each through toInventoryItem costs about as much as generating it, while what the writer stores is the
   * fold: one row per class, named by its first asset, with the summed amount. So the simulator folds first (on the
   * two fields the mapper copies verbatim: classid, and amount as a number; `Universe.inventoryFolded`) and only
   * each class's first asset is mapped. Folding the result again (as the writer does) changes nothing. Private and unknown
   * profiles answer 403 on the platform, which the client reads as private.
   */
  override async getInventory(steamId: string): Promise<InventoryResult> {
    const accountId = this.universe.accountIdOf(steamId);
    if (this.skipInventory || accountId === null || this.universe.isPrivate(accountId)) return { visibility: 'private' };
    const folded = this.universe.inventoryFolded(accountId);
    const items = folded.map(({ asset, amount }) => ({ ...toInventoryItem(asset, this.describe(asset.classid)), amount }));
    return { visibility: 'public', totalCount: this.universe.inventorySize(accountId), items };
  }

  private describe(classId: string): RawInventoryDescription {
    let description = this.descriptions.get(classId);
    if (!description) {
      description = this.universe.describe(classId)!;
      this.descriptions.set(classId, description);
    }
    return description;
  }
}
