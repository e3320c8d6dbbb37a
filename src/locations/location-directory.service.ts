import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { JsonLogger } from '../common/logging/json-logger';
import { countryNameOf, countryRegionTable, regionOfCountry } from '../platform/country-regions';
import { Country, Region, State } from './dto/locations.dto';

/** How long a built directory is served before it is built again (in the background; the old one meanwhile). */
export const LOCATIONS_REBUILD_MS = 60 * 60 * 1000;

/** The distinct locations of the stored accounts: one pass over `accounts` per build. */
const STORED_LOCATIONS_SQL = `SELECT country_code, country_name, state_code, state_name, city_name FROM accounts
  WHERE country_code IS NOT NULL GROUP BY country_code, country_name, state_code, state_name, city_name`;

interface LocationRow {
  country_code: string;
  country_name: string | null;
  state_code: string | null;
  state_name: string | null;
  city_name: string | null;
}

/**
 * # Location directory
 *
 * `location.getLocations`: regions → countries → states → cities, named as the location boards accept them. A board's
 * location filter is matched (case-insensitively) against the names stored on the account rows, and a region is the
 * continent of the country (platform/country-regions.ts); so the directory is
 * - every country the region table knows, under its region, named as the accounts from it store it (the platform's
 *   name, which LocationNames resolved) or, with no such account, by the table's English name;
 * - under each country, the states and cities the stored accounts name (a place no account is from has no board).
 *
 * Built once per process at boot (or on first use), as the response text, and served as it is (no work per request); rebuilt in
 * the background every LOCATIONS_REBUILD_MS so new places appear, the previous text served meanwhile.
 */
@Injectable()
export class LocationDirectory implements OnApplicationBootstrap {
  private readonly logger = new JsonLogger('LocationDirectory');
  private text: Promise<string> | null = null;
  private builtAt = 0;
  private rebuilding = false;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Built in the background at boot, so the first request does not wait for the pass over `accounts` (272 ms over
   * the 100k seed's 58k located accounts; about ten times that at a million). A failure here is retried on first use.
   */
  onApplicationBootstrap(): void {
    this.json().catch(() => undefined);
  }

  /** The directory as JSON text (a bare array of Region). */
  async json(): Promise<string> {
    if (!this.text) {
      this.text = this.build();
      // A failed first build is not kept: the next request tries again (and answers 503 meanwhile).
      this.text.catch(() => (this.text = null));
    } else if (Date.now() - this.builtAt > LOCATIONS_REBUILD_MS && !this.rebuilding) {
      this.rebuild().catch((error: Error) => this.logger.warn({ msg: 'location directory rebuild failed', error: error.message }));
    }
    return this.text;
  }

  /** Builds the directory again now; the previous one is served until it is done. */
  async rebuild(): Promise<void> {
    this.rebuilding = true;
    try {
      const text = await this.build();
      this.text = Promise.resolve(text);
    } finally {
      this.rebuilding = false;
    }
  }

  private async build(): Promise<string> {
    const started = Date.now();
    const rows: LocationRow[] = await this.dataSource.query(STORED_LOCATIONS_SQL);
    const regions = directoryOf(rows);
    this.builtAt = Date.now();
    this.logger.log({ msg: 'location directory built', places: rows.length, ms: this.builtAt - started });
    return JSON.stringify(regions);
  }
}

const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name, 'en');

/** The tree of the region table's countries and the stored places (see LocationDirectory). */
export function directoryOf(rows: readonly LocationRow[]): Region[] {
  const countries = new Map<string, Country & { stateMap: Map<string, State & { citySet: Set<string> }> }>();
  for (const [code] of countryRegionTable())
    countries.set(code, { code, name: countryNameOf(code) ?? code, states: [], stateMap: new Map() });
  // Stored names first in row order; the first stored name of a country wins over the table's.
  const named = new Set<string>();
  for (const row of rows) {
    const code = row.country_code.toUpperCase();
    const country = countries.get(code);
    if (!country) continue;
    if (row.country_name && !named.has(code)) {
      country.name = row.country_name;
      named.add(code);
    }
    if (!row.state_name) continue;
    const stateKey = row.state_code ?? row.state_name;
    let state = country.stateMap.get(stateKey);
    if (!state)
      country.stateMap.set(stateKey, (state = { code: row.state_code ?? '', name: row.state_name, cities: [], citySet: new Set() }));
    if (row.city_name) state.citySet.add(row.city_name);
  }
  const regions = new Map<string, Region>();
  for (const country of countries.values()) {
    const regionName = regionOfCountry(country.code)!;
    let region = regions.get(regionName);
    if (!region) regions.set(regionName, (region = { name: regionName, countries: [] }));
    const states: State[] = [...country.stateMap.values()]
      .map((state) => ({
        code: state.code,
        name: state.name,
        cities: [...state.citySet].sort((a, b) => a.localeCompare(b, 'en')).map((name) => ({ name })),
      }))
      .sort(byName);
    region.countries!.push({ code: country.code, name: country.name, states });
  }
  const sorted = [...regions.values()].sort(byName);
  for (const region of sorted) region.countries!.sort(byName);
  return sorted;
}
