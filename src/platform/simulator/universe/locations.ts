import type { LocationCity, LocationCountry, LocationState } from '../../client/platform.types';

/**
 * A small fixed geography served by QueryLocations. Accounts only ever reference codes from this table, so every
 * loccountrycode / locstatecode / loccityid in a summary resolves to a name.
 */
interface CountryDef {
  code: string;
  name: string;
  /** Relative share of located accounts. */
  weight: number;
  states: { code: string; name: string; cities: [number, string][] }[];
}

const COUNTRIES: CountryDef[] = [
  {
    code: 'US',
    name: 'United States',
    weight: 30,
    states: [
      {
        code: 'CA',
        name: 'California',
        cities: [
          [3840, 'Los Angeles'],
          [3841, 'San Francisco'],
          [3842, 'San Diego'],
        ],
      },
      {
        code: 'NY',
        name: 'New York',
        cities: [
          [4510, 'New York'],
          [4511, 'Buffalo'],
        ],
      },
      {
        code: 'TX',
        name: 'Texas',
        cities: [
          [4702, 'Austin'],
          [4703, 'Houston'],
          [4704, 'Dallas'],
        ],
      },
      {
        code: 'WA',
        name: 'Washington',
        cities: [
          [4890, 'Seattle'],
          [4891, 'Bellevue'],
        ],
      },
    ],
  },
  {
    code: 'DE',
    name: 'Germany',
    weight: 12,
    states: [
      {
        code: '02',
        name: 'Bayern',
        cities: [
          [10820, 'Munich'],
          [10821, 'Nuremberg'],
        ],
      },
      { code: '16', name: 'Berlin', cities: [[10901, 'Berlin']] },
      { code: '04', name: 'Hamburg', cities: [[10840, 'Hamburg']] },
    ],
  },
  {
    code: 'GB',
    name: 'United Kingdom',
    weight: 8,
    states: [
      { code: 'H9', name: 'London, City of', cities: [[22790, 'London']] },
      { code: 'I2', name: 'Manchester', cities: [[22801, 'Manchester']] },
    ],
  },
  {
    code: 'RU',
    name: 'Russian Federation',
    weight: 12,
    states: [
      { code: '48', name: 'Moscow City', cities: [[41000, 'Moscow']] },
      { code: '66', name: 'Saint Petersburg City', cities: [[41100, 'Saint Petersburg']] },
    ],
  },
  {
    code: 'BR',
    name: 'Brazil',
    weight: 8,
    states: [
      {
        code: '27',
        name: 'Sao Paulo',
        cities: [
          [5500, 'Sao Paulo'],
          [5501, 'Campinas'],
        ],
      },
      { code: '21', name: 'Rio de Janeiro', cities: [[5400, 'Rio de Janeiro']] },
    ],
  },
  {
    code: 'CA',
    name: 'Canada',
    weight: 5,
    states: [
      {
        code: 'ON',
        name: 'Ontario',
        cities: [
          [7010, 'Toronto'],
          [7011, 'Ottawa'],
        ],
      },
      { code: 'QC', name: 'Quebec', cities: [[7100, 'Montreal']] },
    ],
  },
  { code: 'PL', name: 'Poland', weight: 5, states: [{ code: '78', name: 'Mazowieckie', cities: [[31000, 'Warsaw']] }] },
  { code: 'SE', name: 'Sweden', weight: 3, states: [{ code: '26', name: 'Stockholms Lan', cities: [[33000, 'Stockholm']] }] },
  { code: 'SG', name: 'Singapore', weight: 2, states: [] },
  { code: 'MC', name: 'Monaco', weight: 1, states: [] },
];

const TOTAL_WEIGHT = COUNTRIES.reduce((sum, c) => sum + c.weight, 0);

export interface LocationChoice {
  country: string;
  state?: string;
  city?: number;
}

/**
 * Picks a location from three independent uniform draws: `u0` chooses the country by weight, `u1` whether and
 * which state (75% of accounts in countries with states), `u2` whether and which city (60% of those).
 */
export function chooseLocation(u0: number, u1: number, u2: number): LocationChoice {
  let target = u0 * TOTAL_WEIGHT;
  let country = COUNTRIES[COUNTRIES.length - 1];
  for (const c of COUNTRIES) {
    if (target < c.weight) {
      country = c;
      break;
    }
    target -= c.weight;
  }
  if (country.states.length === 0 || u1 >= 0.75) return { country: country.code };
  const state = country.states[Math.floor((u1 / 0.75) * country.states.length)];
  if (u2 >= 0.6) return { country: country.code, state: state.code };
  const city = state.cities[Math.floor((u2 / 0.6) * state.cities.length)];
  return { country: country.code, state: state.code, city: city[0] };
}

export function countries(): LocationCountry[] {
  return COUNTRIES.map((c) => ({ countryCode: c.code, countryName: c.name, hasStates: c.states.length > 0 }));
}

export function states(countryCode: string): LocationState[] {
  const country = COUNTRIES.find((c) => c.code === countryCode.toUpperCase());
  return (country?.states ?? []).map((s) => ({ countryCode: country!.code, stateCode: s.code, stateName: s.name }));
}

export function cities(countryCode: string, stateCode: string): LocationCity[] {
  const country = COUNTRIES.find((c) => c.code === countryCode.toUpperCase());
  const state = country?.states.find((s) => s.code === stateCode.toUpperCase());
  return (state?.cities ?? []).map(([cityId, cityName]) => ({
    countryCode: country!.code,
    stateCode: state!.code,
    cityId,
    cityName,
  }));
}
