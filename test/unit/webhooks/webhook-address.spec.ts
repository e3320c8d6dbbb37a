import { LookupAddress } from 'node:dns';
import { addressAllowed, guardedLookup, REFUSED_DESTINATION, urlProblem } from '../../../src/common/net/public-address';

describe('webhook addresses (SSRF)', () => {
  it('should accept https to public hosts and addresses', () => {
    for (const url of ['https://example.com/hook', 'https://8.8.8.8/x', 'https://[2606:4700::1111]/x', 'https://example.com:8443/a?b=c'])
      expect({ url, problem: urlProblem(url, false) }).toEqual({ url, problem: null });
  });

  it('should refuse loopback, private, link-local and reserved addresses, plain http and credentials', () => {
    for (const url of [
      'http://example.com/hook',
      'https://127.0.0.1/x',
      'https://127.1.2.3/x',
      'https://localhost/x',
      'https://api.localhost/x',
      'https://[::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://[::ffff:7f00:1]/x',
      // IPv4-compatible (::/96, deprecated) and IPv4-translated (::ffff:0:0:0/96) forms: not global unicast.
      'https://[::127.0.0.1]/x',
      'https://[::7f00:1]/x',
      'https://[::ffff:0:7f00:1]/x',
      'https://[::808:808]/x',
      'https://[64:ff9b::7f00:1]/x',
      'https://[2002:7f00:1::]/x',
      'https://[2001:db8::1]/x',
      'https://[3fff::1]/x',
      'https://[100::1]/x',
      'https://198.18.0.1/x',
      'https://192.0.2.1/x',
      'https://255.255.255.255/x',
      'https://240.0.0.1/x',
      'https://0.0.0.0/x',
      'https://10.1.2.3/x',
      'https://172.16.0.1/x',
      'https://192.168.0.1/x',
      'https://169.254.169.254/x',
      'https://100.64.0.1/x',
      'https://[fd12::1]/x',
      'https://[fe80::1]/x',
      'https://224.0.0.1/x',
      'https://user:pw@example.com/x',
      'https://example.com/x#frag',
      'file:///etc/passwd',
      'not a url',
    ])
      expect({ url, refused: urlProblem(url, false) !== null }).toEqual({ url, refused: true });
  });

  it('should allow loopback, over http too, only when the flag says so, and nothing else private', () => {
    expect(urlProblem('http://127.0.0.1:4000/hook', true)).toBeNull();
    expect(urlProblem('http://localhost:4000/hook', true)).toBeNull();
    expect(urlProblem('http://[::1]:4000/hook', true)).toBeNull();
    expect(urlProblem('http://10.0.0.1/hook', true)).not.toBeNull();
    expect(urlProblem('https://192.168.1.1/hook', true)).not.toBeNull();
    expect(urlProblem('http://example.com/hook', true)).not.toBeNull();
    expect(addressAllowed('127.0.0.1', true)).toBe(true);
    expect(addressAllowed('127.0.0.1', false)).toBe(false);
    expect(addressAllowed('::ffff:10.0.0.1', true)).toBe(false);
  });

  it('should refuse at connection time a name that resolves to a refused address', async () => {
    const resolve = (allowLoopback: boolean) =>
      new Promise<{ error: NodeJS.ErrnoException | null; addresses: LookupAddress[] }>((done) =>
        guardedLookup(allowLoopback)('localhost', { all: true }, (error, addresses) =>
          done({ error, addresses: addresses as unknown as LookupAddress[] }),
        ),
      );
    const refused = await resolve(false);
    expect(refused.error?.code).toBe('EWEBHOOKADDRESS');
    const allowed = await resolve(true);
    expect(allowed.error).toBeNull();
    expect(allowed.addresses.length).toBeGreaterThan(0);
  });

  it('should judge addresses as global unicast or not, loopback only with the flag, whatever their spelling', () => {
    for (const address of ['8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '2a00:1450:4001:81b::200e'])
      expect({ address, allowed: addressAllowed(address, false) }).toEqual({ address, allowed: true });
    for (const address of [
      '::7f00:1',
      '::127.0.0.1',
      '::ffff:0:7f00:1',
      '::ffff:0:a00:1',
      '0.0.0.0',
      '::',
      'fe80::1%eth0',
      'fd00::1',
      'not-an-ip',
    ])
      expect({ address, allowed: addressAllowed(address, true) }).toEqual({ address, allowed: false });
    expect(addressAllowed('::1', true)).toBe(true);
    expect(addressAllowed('::ffff:127.0.0.1', true)).toBe(true);
    expect(addressAllowed('::1', false)).toBe(false);
  });

  it('should say only that a name resolving to a refused address was refused, keeping what it resolved to for the log', async () => {
    const resolver = (_host: string, _options: object, callback: (error: Error | null, addresses: LookupAddress[]) => void) =>
      callback(null, [
        { address: '93.184.216.34', family: 4 },
        { address: '10.1.2.3', family: 4 },
      ]);
    const error = await new Promise<(NodeJS.ErrnoException & { detail?: unknown }) | null>((done) =>
      guardedLookup(false, resolver)('hooks.example.com', { all: true }, (failure) => done(failure)),
    );
    expect(error?.code).toBe('EWEBHOOKADDRESS');
    expect(error?.message).toBe(REFUSED_DESTINATION);
    expect(error?.message).not.toContain('10.1.2.3');
    expect(error?.detail).toEqual({ hostname: 'hooks.example.com', refused: '10.1.2.3', addresses: ['93.184.216.34', '10.1.2.3'] });
  });
});
