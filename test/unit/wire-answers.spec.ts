import { wireAnswerErrors } from '../support/wire-answers';

/** The answer checker the e2e specs use must refuse what a generated client with response validation would. */
describe('wireAnswerErrors', () => {
  const event = {
    uid: 'mnt_1a2b3c4d',
    title: 'Upgrade',
    message: 'Soon.',
    enabled: true,
    paths: ['*'],
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
  };

  it('should accept a documented answer, nullable fields null and optional ones absent', () => {
    expect(wireAnswerErrors('maintenance.list', { $schema: 'https://example.com/schemas/ListResponseBody.json', items: [event] })).toEqual(
      [],
    );
    expect(wireAnswerErrors('maintenance.list', { items: [{ ...event, paths: null }] })).toEqual([]);
    expect(wireAnswerErrors('location.getLocations', [{ name: 'Europe', countries: null }], 'get')).toEqual([]);
  });

  it('should refuse a null where the document does not allow one, a missing required field and a wrong type', () => {
    expect(wireAnswerErrors('maintenance.list', { items: [{ ...event, updatedAt: null }] })).toEqual([
      'maintenance.list/items/0/updatedAt must be string',
    ]);
    expect(wireAnswerErrors('maintenance.list', { items: [{ ...event, title: undefined }] })).toEqual([
      "maintenance.list/items/0 must have required property 'title'",
    ]);
    expect(wireAnswerErrors('location.getLocations', { regions: [] }, 'get')).toEqual(['location.getLocations must be array']);
  });

  it('should read a nullable reference as "the reference or null", and still check the reference', () => {
    const settings = wireAnswerErrors('account.getSettings', { chosenRole: null });
    expect(settings.filter((error) => error.includes('chosenRole'))).toEqual([]);
    const wrong = wireAnswerErrors('account.getSettings', { chosenRole: { role: 42 } });
    expect(wrong.filter((error) => error.includes('chosenRole')).length).toBeGreaterThan(0);
  });

  it('should refuse an enum value the document does not list', () => {
    const connection = { connectionId: 'c', externalId: 'e', name: 'n', avatar: 'a', failed: false, hide: false, verified: true };
    const body = {
      avatar: 'a',
      name: 'n',
      privacy: 'public',
      city: null,
      country: null,
      email: null,
      region: null,
      state: null,
      vanity: null,
    };
    const lists = {
      connections: null,
      developerApps: null,
      locationUpdates: null,
      nameUpdates: null,
      resources: null,
      roles: null,
      sessions: null,
      vanityUpdates: null,
    };
    expect(wireAnswerErrors('admin.getAccount', { ...body, ...lists })).toEqual([]);
    const errors = wireAnswerErrors('admin.getAccount', { ...body, ...lists, connections: [{ ...connection, provider: 'myspace' }] });
    expect(errors).toEqual(['admin.getAccount/connections/0/provider must be equal to one of the allowed values']);
  });

  it('should refuse to check an operation the document gives no JSON answer for', () => {
    expect(() => wireAnswerErrors('kv.set', {})).toThrow('no JSON success answer');
  });
});
