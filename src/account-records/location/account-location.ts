/**
 * # An account's location, and a country override over it
 *
 * The location columns of `accounts` (country, state, city, region) are what every reader uses: cards, the profile,
 * the rank engine's scopes, the location filters. They hold the platform's location, with the region derived from the
 * country (platform/country-regions.ts), unless the account's user chose a country override
 * (`account.updateSettings` `countryOverride`): then they hold the override's country and region, with no state and
 * no city (the platform's state and city belong to another country), and the platform's own location waits in
 * `account_settings.platform_location` until the override is cleared. The refresh pipeline applies a standing override
 * to every location it reads (AccountWriter), so the override survives refreshes; clearing it puts the platform's
 * location back at once. Readers never need to know an override exists.
 */
import { regionOfCountry } from '../../platform/country-regions';
import { AccountEntity } from '../entities/account.entity';

/** The location columns of an account row. */
export type StoredLocation = Pick<
  AccountEntity,
  'countryCode' | 'countryName' | 'stateCode' | 'stateName' | 'cityId' | 'cityName' | 'region'
>;

export const LOCATION_FIELDS = ['countryCode', 'countryName', 'stateCode', 'stateName', 'cityId', 'cityName', 'region'] as const;

/** The location columns of a row (or of the fields a refresh is about to write). */
export function locationOf(row: Partial<StoredLocation>): StoredLocation {
  return {
    countryCode: row.countryCode ?? null,
    countryName: row.countryName ?? null,
    stateCode: row.stateCode ?? null,
    stateName: row.stateName ?? null,
    cityId: row.cityId ?? null,
    cityName: row.cityName ?? null,
    region: row.region ?? null,
  };
}

/** The location an override of the country to (`code`, `name`) gives an account. */
export function overriddenLocation(code: string, name: string): StoredLocation {
  return {
    countryCode: code,
    countryName: name,
    stateCode: null,
    stateName: null,
    cityId: null,
    cityName: null,
    region: regionOfCountry(code),
  };
}

/** Whether two locations differ in any column. */
export function locationsDiffer(a: StoredLocation, b: StoredLocation): boolean {
  return LOCATION_FIELDS.some((field) => (a[field] ?? null) !== (b[field] ?? null));
}
