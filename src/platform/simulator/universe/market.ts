import { kindOfMarketHashName } from './items';
import type { World } from './world';
import { Salt, hash, hashString, logUniformInt, unit } from '../random';
import type { MarketPrice } from '../../client/platform.types';

/** Currencies served by priceoverview: 1 = USD ("$1,234.56"), 3 = EUR ("1.234,56€", fixed 0.92 rate). */
export const SUPPORTED_CURRENCIES = [1, 3] as const;

/**
 * Price of a marketable item at a tick, in cents of the currency. It drifts deterministically: a per-item base
 * price times exp(0.3·sin(2π·(tick/period + phase)) + noise), with period 12 hours..14 days of ticks and noise
 * redrawn every 60 ticks; the platform's floor of 3 cents applies. Null for unknown or unmarketable items. Items
 * with no daily volume have no median; foil cards among them are sometimes not listed at all (no lowest price).
 */
export function marketPrice(w: World, hashName: string, tick: number, currency: number): MarketPrice | null {
  const kind = kindOfMarketHashName(w.catalogue, hashName);
  if (!kind || kind.kind === 'gems') return null;
  const key = hashString(hashName);
  const h = (k: number, t = 0): number => hash(w.seed, Salt.market, key, k, t);
  const [lo, hi] = kind.kind === 'booster' ? [25, 200] : kind.foil ? [15, 600] : [3, 40];
  const base = logUniformInt(h(1), lo, hi);
  const period = logUniformInt(h(2), 720, 20_160);
  const wave = 0.3 * Math.sin(2 * Math.PI * (tick / period + unit(h(3))));
  const noise = 0.16 * (unit(h(4, Math.floor(tick / 60))) - 0.5);
  const rate = currency === 3 ? 0.92 : 1;
  const lowest = Math.max(3, Math.round(base * Math.exp(wave + noise) * rate));
  const dailyOwners = kind.app.popularity / (kind.kind === 'card' && kind.foil ? 20_000 : 2_000);
  const volume = Math.floor(dailyOwners * (0.5 + unit(h(5, Math.floor(tick / 60)))));
  if (volume === 0) {
    // Foil cards nobody trades go unlisted for hours at a time (a quarter of them at any hour): `noListing`.
    const unlisted = kind.kind === 'card' && kind.foil && unit(h(7, Math.floor(tick / 60))) < 0.25;
    return { lowestPrice: unlisted ? null : lowest, medianPrice: null, volume: null };
  }
  return { lowestPrice: lowest, medianPrice: Math.max(3, Math.round(lowest * (0.95 + 0.15 * unit(h(6, tick))))), volume };
}

function groupThousands(n: number, sep: string): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, sep);
}

/** Formats cents the way the market does for the currency. */
export function formatPrice(cents: number, currency: number): string {
  const major = Math.floor(cents / 100);
  const minor = String(cents % 100).padStart(2, '0');
  return currency === 3 ? `${groupThousands(major, '.')},${minor}€` : `$${groupThousands(major, ',')}.${minor}`;
}

export function formatVolume(volume: number): string {
  return groupThousands(volume, ',');
}
