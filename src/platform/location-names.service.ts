import { Injectable } from '@nestjs/common';
import { PlatformClient } from './client/platform-client';

export interface LocationNamesResult {
  countryName: string | null;
  stateName: string | null;
  cityName: string | null;
}

/**
 * Turns the codes of a player summary into names via the community's location lists. The lists hardly ever
 * change, so each one is fetched once per process and kept.
 */
@Injectable()
export class LocationNames {
  private readonly cache = new Map<string, Promise<Map<string, string>>>();

  constructor(private readonly client: PlatformClient) {}

  async resolve(countryCode?: string, stateCode?: string, cityId?: number): Promise<LocationNamesResult> {
    const result: LocationNamesResult = { countryName: null, stateName: null, cityName: null };
    if (!countryCode) return result;
    result.countryName = (await this.list('', () => this.countries())).get(countryCode) ?? null;
    if (!stateCode) return result;
    result.stateName = (await this.list(countryCode, () => this.states(countryCode))).get(stateCode) ?? null;
    if (cityId === undefined) return result;
    result.cityName =
      (await this.list(`${countryCode}/${stateCode}`, () => this.cities(countryCode, stateCode))).get(String(cityId)) ?? null;
    return result;
  }

  /** The platform's countries, code → name (fetched once per process, like every list). */
  countryList(): Promise<Map<string, string>> {
    return this.list('', () => this.countries());
  }

  private list(key: string, load: () => Promise<Map<string, string>>): Promise<Map<string, string>> {
    let entry = this.cache.get(key);
    if (!entry) {
      entry = load();
      // A failed load is not cached: the next update tries again.
      entry.catch(() => this.cache.delete(key));
      this.cache.set(key, entry);
    }
    return entry;
  }

  private async countries(): Promise<Map<string, string>> {
    const rows = await this.client.queryLocations();
    return new Map(rows.map((row) => [row.countryCode, (row as { countryName: string }).countryName]));
  }

  private async states(countryCode: string): Promise<Map<string, string>> {
    const rows = await this.client.queryLocations(countryCode);
    return new Map(rows.map((row) => [(row as { stateCode: string }).stateCode, (row as { stateName: string }).stateName]));
  }

  private async cities(countryCode: string, stateCode: string): Promise<Map<string, string>> {
    const rows = await this.client.queryLocations(countryCode, stateCode);
    return new Map(rows.map((row) => [String((row as { cityId: number }).cityId), (row as { cityName: string }).cityName]));
  }
}
