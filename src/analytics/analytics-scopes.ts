import { Injectable } from '@nestjs/common';
import { continents } from 'countries-list';
import { unprocessable } from '../common/problem/problem.exception';
import { countryCodeOf, countryNameOf } from '../platform/country-regions';
import { RankReader } from '../ranks/rank-reader.service';

/** How long the countries on the boards (name ↔ code) are kept per process: they change when a new country shows up. */
const COUNTRIES_TTL_MS = 60_000;

interface Countries {
  at: number;
  /** Lower-cased name → code. */
  codeOfName: Map<string, string>;
  /** Upper-cased code → lower-cased name. */
  nameOfCode: Map<string, string>;
}

/** The region names (continents of countries-list, as platform/country-regions.ts assigns them). */
const REGIONS = Object.values(continents);

/**
 * A request's scope and `scope_value` → the rank replica's scope key (`g`, `r:<region>`, `c:<country>`,
 * `s:<country>|<state>`, `t:<country>|<state>|<city>`, lower-cased: ranks/rank-scopes.ts). A country is named by its
 * name or ISO code; a state or city by `country|state[|city]`. An unknown region or country is a 422; a state or a city
 * nobody lives in is a scope of no accounts.
 */
@Injectable()
export class AnalyticsScopes {
  private countries: Countries | null = null;
  private loading: Promise<Countries> | null = null;

  constructor(private readonly ranks: RankReader) {}

  async keyOf(scope: string, value: string | undefined): Promise<string> {
    if (scope === 'global') return 'g';
    const text = value?.trim();
    if (!text) throw invalid(`scope_value is required for the ${scope} scope.`, value);
    if (scope === 'region') {
      const region = REGIONS.find((name) => name.toLowerCase() === text.toLowerCase());
      if (!region) throw invalid(`No region is called "${text}"; regions: ${REGIONS.join(', ')}.`, value);
      return `r:${region.toLowerCase()}`;
    }
    const parts = text.split('|').map((part) => part.trim().toLowerCase());
    const wanted = { country: 1, state: 2, city: 3 }[scope] ?? 0;
    if (parts.length !== wanted || parts.some((part) => !part)) {
      throw invalid(`scope_value for the ${scope} scope is ${['country', 'country|state', 'country|state|city'][wanted - 1]}.`, value);
    }
    const country = await this.countryName(parts[0]);
    if (!country) throw invalid(`No country is known as "${parts[0]}".`, value);
    return `${{ country: 'c', state: 's', city: 't' }[scope as 'country']}:${[country, ...parts.slice(1)].join('|')}`;
  }

  /** The display name and code of a country scope key's name (`germany` → Germany, DE). */
  async countryOf(name: string): Promise<{ countryCode?: string; countryName: string }> {
    const code = (await this.loaded()).codeOfName.get(name);
    return { countryCode: code, countryName: (code && countryNameOf(code)) || titleCase(name) };
  }

  /** A region scope key's name as the regions are spelled (`north america` → North America). */
  regionName(name: string): string {
    return REGIONS.find((region) => region.toLowerCase() === name) ?? titleCase(name);
  }

  /** The lower-cased name the boards know a country by, from its name or code; null when none. */
  private async countryName(input: string): Promise<string | null> {
    const countries = await this.loaded();
    if (countries.codeOfName.has(input)) return input;
    const code = /^[a-z]{2}$/.test(input) ? input.toUpperCase() : countryCodeOf(input);
    if (!code) return null;
    return countries.nameOfCode.get(code) ?? countryNameOf(code)?.toLowerCase() ?? null;
  }

  private async loaded(): Promise<Countries> {
    if (this.countries && Date.now() - this.countries.at < COUNTRIES_TTL_MS) return this.countries;
    this.loading ??= this.ranks
      .countries()
      .then((hash) => {
        const codeOfName = new Map(Object.entries(hash).map(([name, code]) => [name, code.toUpperCase()]));
        const nameOfCode = new Map([...codeOfName].map(([name, code]) => [code, name]));
        return (this.countries = { at: Date.now(), codeOfName, nameOfCode });
      })
      .finally(() => (this.loading = null));
    return this.loading;
  }
}

const invalid = (detail: string, value: unknown) => unprocessable(detail, [{ location: 'body.scope_value', message: detail, value }]);

const titleCase = (name: string) =>
  name.replace(/(^|[\s-])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase());
