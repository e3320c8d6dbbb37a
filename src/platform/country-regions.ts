/**
 * # Regions of countries
 *
 * The platform gives an account's country, state and city codes, never a region. The region scope of the boards
 * (`r:<region>`, src/ranks) follows from the country: **the region of a country is the continent the maintained
 * `countries-list` package assigns to its ISO 3166-1 alpha-2 code**, by the package's English continent name
 * (`Africa`, `Antarctica`, `Asia`, `Europe`, `North America`, `Oceania`, `South America`). A code the package does
 * not know has no region. One rule for every writer of a location: the refresh pipeline (profileFields), the seed
 * (which uses it), a country override (account-settings) and the data migration that filled the stored accounts.
 *
 * The package's country names also let a user name a country for an override by its common English name
 * ("Russia") where the platform's list says "Russian Federation": `countryCodeOf` resolves either, or a code.
 */
import { continents, countries, getCountryCode, languages } from 'countries-list';

type CountryCode = keyof typeof countries;

const isCountryCode = (code: string): code is CountryCode => Object.prototype.hasOwnProperty.call(countries, code);

/** The region (continent name) of an ISO 3166-1 alpha-2 country code, or null when unknown. */
export function regionOfCountry(countryCode: string | null | undefined): string | null {
  if (!countryCode) return null;
  const code = countryCode.toUpperCase();
  return isCountryCode(code) ? continents[countries[code].continent] : null;
}

/** Every code → region pair of the table (for a set-based fill of stored rows). */
export function countryRegionTable(): [code: string, region: string][] {
  return (Object.keys(countries) as CountryCode[]).map((code) => [code, continents[countries[code].continent]]);
}

/** The package's English name of a country code, or null when unknown. */
export function countryNameOf(countryCode: string): string | null {
  const code = countryCode.toUpperCase();
  return isCountryCode(code) ? countries[code].name : null;
}

/**
 * The ISO code a user's country names: a two-letter code (any case), or the package's English or native name (any
 * case). Null when it names no country the table knows.
 */
export function countryCodeOf(input: string): string | null {
  const text = input.trim();
  if (/^[a-zA-Z]{2}$/.test(text)) return isCountryCode(text.toUpperCase()) ? text.toUpperCase() : null;
  const code = getCountryCode(text);
  if (code) return code;
  const lower = text.toLowerCase();
  const match = (Object.keys(countries) as CountryCode[]).find(
    (c) => countries[c].name.toLowerCase() === lower || countries[c].native.toLowerCase() === lower,
  );
  return match ?? null;
}

/** Whether a two-letter code is an ISO 639-1 language the table knows (`en`, `de`, …). */
export function isLanguageCode(code: string): boolean {
  return Object.prototype.hasOwnProperty.call(languages, code);
}
