import { directoryOf } from '../../src/locations/location-directory.service';
import { toHistories } from '../../src/staff/mappers/admin-account.mapper';

describe('the location directory', () => {
  const row = (
    country_code: string,
    country_name: string | null,
    state_code: string | null,
    state_name: string | null,
    city_name: string | null,
  ) => ({
    country_code,
    country_name,
    state_code,
    state_name,
    city_name,
  });

  it('should list every known country under its continent, named as stored accounts name it, with their places', () => {
    const regions = directoryOf([
      row('RU', 'Russian Federation', null, null, null),
      row('DE', 'Germany', '01', 'Baden-Wurttemberg', 'Freiburg'),
      row('DE', 'Germany', '01', 'Baden-Wurttemberg', 'Bad Krozingen'),
      row('DE', 'Germany', '02', 'Bayern', null),
      row('ZZ', 'Nowhere', '01', 'Somewhere', 'Sometown'),
    ]);
    expect(regions.map((region) => region.name)).toEqual([
      'Africa',
      'Antarctica',
      'Asia',
      'Europe',
      'North America',
      'Oceania',
      'South America',
    ]);
    const europe = regions.find((region) => region.name === 'Europe')!;
    expect(europe.countries!.find((country) => country.code === 'DE')).toEqual({
      code: 'DE',
      name: 'Germany',
      states: [
        { code: '01', name: 'Baden-Wurttemberg', cities: [{ name: 'Bad Krozingen' }, { name: 'Freiburg' }] },
        { code: '02', name: 'Bayern', cities: [] },
      ],
    });
    // The platform's name where accounts store it; the table's where none does.
    const everyCountry = regions.flatMap((region) => region.countries!);
    expect(everyCountry.find((country) => country.code === 'RU')?.name).toBe('Russian Federation');
    expect(europe.countries!.find((country) => country.code === 'FR')).toEqual({ code: 'FR', name: 'France', states: [] });
    // A code the region table does not know has no region, so no board: left out.
    expect(JSON.stringify(regions)).not.toContain('Nowhere');
    const names = europe.countries!.map((country) => country.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
  });
});

describe('the histories of admin.getAccount', () => {
  it('should map each kind of change to its wire shape, in the order given', () => {
    const at = new Date('2026-01-02T03:04:05Z');
    const location = (countryCode: string | null, cityName: string | null) => ({
      countryCode,
      countryName: null,
      stateCode: null,
      stateName: null,
      cityId: null,
      cityName,
      region: null,
    });
    expect(
      toHistories([
        { kind: 'vanity', old: 'a', new: null, changed_at: at },
        { kind: 'name', old: 'Old', new: 'New', changed_at: at },
        { kind: 'location', old: location('FR', null), new: location('DE', 'Freiburg'), changed_at: at },
      ]),
    ).toEqual({
      nameUpdates: [{ name: { old: 'Old', new: 'New' }, updatedAt: '2026-01-02T03:04:05.000Z' }],
      vanityUpdates: [{ vanity: { old: 'a', new: null }, updatedAt: '2026-01-02T03:04:05.000Z' }],
      locationUpdates: [
        {
          city: { old: null, new: 'Freiburg' },
          countryCode: { old: 'FR', new: 'DE' },
          countryName: { old: null, new: null },
          region: { old: null, new: null },
          state: { old: null, new: null },
          updatedAt: '2026-01-02T03:04:05.000Z',
        },
      ],
    });
  });
});
