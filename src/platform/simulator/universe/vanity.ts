import { HANDLE_PARTS } from './words';
import { Salt, hash, pick } from '../random';

/**
 * Vanity names that are unique and resolvable without a lookup table: each name is two handle words followed by
 * the decimal form of an affine scramble of the account id (a bijection on 0..size-1), so resolving parses the
 * digits, inverts the scramble and checks the words. ~70% of accounts have a vanity name.
 */
export class VanityCodec {
  private readonly mul: number;
  private readonly add: number;
  private readonly inv: number;

  constructor(
    private readonly seed: number,
    private readonly size: number,
  ) {
    let mul = 1 + (hash(seed, Salt.vanity, 0, 1) % Math.max(1, size - 1));
    while (gcd(mul, size) !== 1) mul += 1;
    this.mul = mul % Math.max(1, size) || 1;
    this.add = hash(seed, Salt.vanity, 0, 2) % size;
    this.inv = modInverse(this.mul, size);
  }

  has(accountId: number): boolean {
    return hash(this.seed, Salt.vanity, accountId) % 100 < 70;
  }

  vanityOf(accountId: number): string | null {
    if (!this.has(accountId)) return null;
    const code = (((accountId - 1) * this.mul + this.add) % this.size).toString();
    return this.words(accountId) + code;
  }

  /** Case-insensitive like the platform; null when no account has this vanity name. */
  resolve(name: string): number | null {
    const m = /^([a-z]+)(0|[1-9]\d{0,15})$/.exec(name.toLowerCase());
    if (!m) return null;
    const code = Number(m[2]);
    if (code >= this.size) return null;
    // (code - add) * inv mod size, kept non-negative; products stay below 2^53 for size <= ~9e7.
    const accountId = ((((((code - this.add) % this.size) + this.size) % this.size) * this.inv) % this.size) + 1;
    return this.vanityOf(accountId) === name.toLowerCase() ? accountId : null;
  }

  private words(accountId: number): string {
    return pick(HANDLE_PARTS, hash(this.seed, Salt.vanity, accountId, 1)) + pick(HANDLE_PARTS, hash(this.seed, Salt.vanity, accountId, 2));
  }
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

function modInverse(a: number, m: number): number {
  if (m === 1) return 0;
  let [oldR, r] = [a, m];
  let [oldS, s] = [1, 0];
  while (r !== 0) {
    const q = Math.floor(oldR / r);
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  return ((oldS % m) + m) % m;
}
