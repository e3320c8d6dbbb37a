import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

/**
 * The domain a user claims, as the one form it is stored and checked in: lower case, ASCII (an IDN as punycode),
 * without a trailing dot; or why it cannot be one. Addresses and `localhost` names are refused here (a domain is
 * proven by DNS and a public HTTPS server), and where the check connects the address rules refuse the rest.
 */
export function normalizedDomain(input: string): { domain: string } | { problem: string } {
  const trimmed = input.trim().replace(/\.$/, '');
  if (!trimmed) return { problem: 'must be a domain name, e.g. example.com' };
  if (isIP(trimmed) || isIP(trimmed.replace(/^\[|\]$/g, ''))) return { problem: 'must be a domain name, not an address' };
  const ascii = domainToASCII(trimmed.toLowerCase());
  if (!ascii || ascii.length > 253) return { problem: 'must be a domain name of at most 253 characters' };
  const labels = ascii.split('.');
  if (labels.length < 2) return { problem: 'must have at least two labels, e.g. example.com' };
  if (labels.some((label) => !/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(label)))
    return { problem: 'each label must be 1–63 letters, digits or inner hyphens' };
  if (/^\d+$/.test(labels[labels.length - 1])) return { problem: 'must end in a name, not a number' };
  if (labels[labels.length - 1] === 'localhost') return { problem: 'must not be a localhost name' };
  return { domain: ascii };
}
