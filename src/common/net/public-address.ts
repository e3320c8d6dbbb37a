import ipaddr from 'ipaddr.js';
import { isIP, LookupFunction } from 'node:net';
import { lookup as dnsLookup, LookupAddress } from 'node:dns';

/**
 * # Public addresses only (SSRF)
 *
 * Where the service may connect when a user names the place (a webhook's URL, a domain to verify): only global
 * unicast addresses, so that a registered name cannot make a process call something on its own network (a metadata
 * service, Redis, an admin port). Checked twice: the URL when it is registered (its scheme, and its host when that is
 * an address), and every address the name resolves to when a request connects (`guardedLookup`), so a name re-pointed
 * at a private address later (DNS rebinding) is refused at the connection that would have used it. Loopback
 * (127.0.0.0/8, ::1, `localhost`) is allowed only with WEBHOOK_ALLOW_LOOPBACK, for tests and local development; every
 * other private range stays refused even then. Used by webhooks/ and connections/, hence here below both.
 *
 * The ranges are ipaddr.js's special-purpose registry (`range() === 'unicast'`), a maintained list rather than one of
 * our own; IPv6 must also be in 2000::/3, the global unicast block, which refuses what the registry leaves `unicast`
 * although no host on the Internet has it: the deprecated IPv4-compatible ::/96 (`[::127.0.0.1]` is `[::7f00:1]`) and
 * the unassigned space. An IPv4-mapped address (`::ffff:10.0.0.1`) is judged as the IPv4 address it carries.
 */

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** The address as ipaddr.js reads it, an IPv4-mapped IPv6 one as its IPv4 address; null when not an IP address. */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const family = isIP(address);
  if (family === 4) return ipaddr.IPv4.parse(address);
  if (family !== 6) return null;
  // The WHATWG URL parser's canonical text first: ipaddr.js reads `::1.2.3.4` (IPv4-compatible) as IPv4-mapped.
  const canonical = new URL(`http://[${address.replace(/%.*$/, '')}]/`).hostname.slice(1, -1);
  const parsed = ipaddr.IPv6.parse(canonical);
  return parsed.isIPv4MappedAddress() ? parsed.toIPv4Address() : parsed;
}

function isLoopback(address: string): boolean {
  return parseAddress(address)?.range() === 'loopback';
}

/** Whether a delivery may connect to this IP address: global unicast, or loopback when `allowLoopback`. */
export function addressAllowed(address: string, allowLoopback: boolean): boolean {
  const parsed = parseAddress(address);
  if (!parsed) return false;
  const range = parsed.range();
  if (range === 'loopback') return allowLoopback;
  if (range !== 'unicast') return false;
  return parsed.kind() === 'ipv4' || (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
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
  if (isIP(host)) return addressAllowed(host, false) ? null : 'must not point at a private or reserved address';
  return null;
}

/** What a tenant is told of a destination refused at connection time: never what its name resolved to. */
export const REFUSED_DESTINATION = 'the destination is not a public address';

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
        // The message is what a tenant may be shown; what the name resolved to is for the service's log only (`detail`).
        const failure = Object.assign(new Error(REFUSED_DESTINATION), {
          code: 'EWEBHOOKADDRESS',
          detail: { hostname, refused: refused?.address ?? null, addresses: addresses.map((entry) => entry.address) },
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
