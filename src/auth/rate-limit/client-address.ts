import { isIPv6 } from 'node:net';
import type { Request } from 'express';

/**
 * The address anonymous callers and failed credentials are counted under: `request.ip` (the socket's peer, or
 * the client named by trusted proxies, see TRUST_PROXY_HOPS). An IPv6 caller is counted by its /64, the
 * block one subscriber gets, or a single host could walk through 2^64 addresses.
 */
export function clientAddress(request: Request): string {
  const ip = request.ip ?? request.socket.remoteAddress ?? 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  return isIPv6(ip) ? `${ipv6Groups(ip).slice(0, 4).join(':')}::/64` : ip;
}

/** The eight groups of an IPv6 address, `::` expanded and zone dropped. */
function ipv6Groups(ip: string): string[] {
  const [head, tail = ''] = ip.split('%')[0].toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  return [...left, ...Array<string>(Math.max(0, missing)).fill('0'), ...right].map((group) => group.replace(/^0+(?=.)/, ''));
}
