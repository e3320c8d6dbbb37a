import { BlockList, isIP, LookupFunction } from 'node:net';
import { lookup as dnsLookup, LookupAddress } from 'node:dns';

/**
 * # Public addresses only (SSRF)
 *
 * Where the service may connect when a user names the place (a webhook's URL, a domain to verify): only public
 * addresses, so that a registered name cannot make a process call something on its own network (a metadata service,
 * Redis, an admin port). Checked twice: the URL when it is registered (its scheme, and its host when that is an
 * address), and every address the name resolves to when a request connects (`guardedLookup`), so a name re-pointed
 * at a private address later (DNS rebinding) is refused at the connection that would have used it. Loopback
 * (127.0.0.0/8, ::1, `localhost`) is allowed only with WEBHOOK_ALLOW_LOOPBACK, for tests and local development; every
 * other private range stays refused even then. Used by webhooks/ and connections/, hence here below both.
 */

const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(network, prefix, 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, `::ffff:a00:1`) carries, else null. */
function mappedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  if (!lower.startsWith('::ffff:')) return null;
  const rest = lower.slice('::ffff:'.length);
  if (isIP(rest) === 4) return rest;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(rest);
  if (!hex) return null;
  const [high, low] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

function isLoopback(address: string): boolean {
  const v4 = mappedIpv4(address);
  if (v4) return LOOPBACK.check(v4, 'ipv4');
  const family = isIP(address);
  return family !== 0 && LOOPBACK.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Whether a delivery may connect to this IP address. */
export function addressAllowed(address: string, allowLoopback: boolean): boolean {
  const v4 = mappedIpv4(address);
  const plain = v4 ?? address;
  const family = isIP(plain);
  if (family === 0) return false;
  if (allowLoopback && isLoopback(plain)) return true;
  return !BLOCKED.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}

function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** `[::1]` → `::1`: URL keeps IPv6 hosts in brackets. */
function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * Why a URL may not be registered, or null when it may: https only (http only to loopback, when allowed), no
 * credentials or fragment, and a host that is not a refused address or a `localhost` name.
 */
export function urlProblem(raw: string, allowLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not carry credentials';
  if (url.hash) return 'must not have a fragment';
  const host = bareHost(url.hostname);
  const loopbackHost = isLocalhostName(host) || isLoopback(host);
  if (url.protocol === 'http:') {
    if (!(allowLoopback && loopbackHost)) return 'must use https (http is accepted for loopback only, when the service allows it)';
  } else if (url.protocol !== 'https:') return 'must use https';
  if (loopbackHost) return allowLoopback ? null : 'must not point at this machine (loopback)';
  if (isIP(host) || mappedIpv4(host)) return addressAllowed(host, false) ? null : 'must not point at a private or reserved address';
  return null;
}

/** Resolves a name to all its addresses; by default the system's resolver (`dns.lookup`, as `net.connect` does). */
export type AddressResolver = (
  hostname: string,
  options: object,
  callback: (error: Error | null, addresses: LookupAddress[]) => void,
) => void;

const systemResolver: AddressResolver = (hostname, options, callback) =>
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => callback(error, addresses));

/**
 * A `net.connect` lookup that resolves the name (as usual, or through `resolver`) and refuses it when any of its
 * addresses is not allowed.
 */
export function guardedLookup(allowLoopback: boolean, resolver: AddressResolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolver(hostname, options, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((entry) => !addressAllowed(entry.address, allowLoopback));
      if (refused || !addresses.length) {
        const failure = Object.assign(new Error(`${hostname} resolves to a refused address (${refused?.address ?? 'none'})`), {
          code: 'EWEBHOOKADDRESS',
        });
        return callback(failure, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** Whether an address literal (the URL's host, which `net.connect` dials without a lookup) may be dialled. */
export function hostAllowed(hostname: string, allowLoopback: boolean): boolean {
  const host = bareHost(hostname);
  return isIP(host) ? addressAllowed(host, allowLoopback) : true;
}
