import type { Request } from 'express';
import { clientAddress } from '../../src/auth/rate-limit/client-address';
import { errorText, storeOutage } from '../../src/common/health/store-outage';
import { compactSql, maskValues, safeErrorFields } from '../../src/common/logging/safe-error';

describe('storeOutage', () => {
  const withCode = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

  it.each([
    [Object.assign(new Error('Reached the max retries per request limit'), { name: 'MaxRetriesPerRequestError' }), 'redis'],
    [new Error("Stream isn't writeable and enableOfflineQueue options is false"), 'redis'],
    [new Error('Connection is closed.'), 'redis'],
    [new Error('Connection terminated unexpectedly'), 'postgres'],
    [withCode('the database system is shutting down', '57P03'), 'postgres'],
    [
      Object.assign(new Error('query failed'), { driverError: withCode('terminating connection due to administrator command', '57P01') }),
      'postgres',
    ],
    [
      Object.assign(new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], ''), { code: 'ECONNREFUSED' }),
      'network',
    ],
  ])('should recognise %s as an outage of %s', (error, store) => {
    expect(storeOutage(error)).toBe(store);
  });

  it.each([
    new Error('boom'),
    withCode('duplicate key value violates unique constraint "x"', '23505'),
    withCode('syntax error', '42601'),
    null,
    'text',
  ])('should not take %s for an outage', (error) => {
    expect(storeOutage(error)).toBeNull();
  });

  it('should give the text of an AggregateError, whose own message is empty', () => {
    expect(
      errorText(new AggregateError([new Error('connect ECONNREFUSED ::1:5432'), new Error('connect ECONNREFUSED 127.0.0.1:5432')], '')),
    ).toBe('connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432');
  });
});

describe('log fields without client values', () => {
  it('should mask quoted values and key values in database messages', () => {
    expect(maskValues('invalid input syntax for type integer: "hunter2"')).toBe('invalid input syntax for type integer: "***"');
    expect(maskValues('Key (email)=(a@b.c) already exists.')).toBe('Key (email)=(***) already exists.');
  });

  it('should keep identifiers and placeholders of SQL but mask its literals', () => {
    expect(compactSql(`SELECT "a"."id"\n  FROM accounts a WHERE name = 'bob' AND id = $1`)).toBe(
      `SELECT "a"."id" FROM accounts a WHERE name = '***' AND id = $1`,
    );
  });

  it('should never carry the parameters of a failed query', () => {
    const error = Object.assign(new Error('invalid input syntax for type bigint: "secret"'), {
      query: 'SELECT $1::bigint',
      parameters: ['secret'],
      driverError: { code: '22P02', table: 'accounts' },
    });
    const fields = safeErrorFields(error);
    expect(fields).toMatchObject({ code: '22P02', table: 'accounts', query: 'SELECT $1::bigint' });
    expect(JSON.stringify(fields)).not.toContain('secret');
  });
});

describe('clientAddress', () => {
  const from = (ip: string) => clientAddress({ ip, socket: {} } as unknown as Request);

  it('should count IPv4, IPv4-mapped IPv6 and IPv6 by /64', () => {
    expect(from('203.0.113.9')).toBe('203.0.113.9');
    expect(from('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(from('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(from('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(from('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(from('::1')).toBe('0:0:0:0::/64');
  });
});
