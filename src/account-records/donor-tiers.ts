import { STAFF_ROLES } from '../common/auth/require-role.decorator';

/**
 * Donor tiers: what an account's support grants (the page size of the donor-perk listings, `badge.listCrafters` and
 * `app.listOwners`; the tier of its `chosenRole`). The service names four tiers, `tier_1` < `tier_2` < `tier_3` <
 * `tier_mythic`. An account's tier is the highest of:
 *
 * - its donations: the lifetime total recorded through `donation record` (`accounts.donated`, US cents) reaches
 *   $1 → `tier_1`, $10 → `tier_2`, $50 → `tier_3`, $250 → `tier_mythic`;
 * - its roles: `donator` (an operator's record of support given elsewhere) is `tier_1` at least, and a role whose
 *   `extras.tier` names a tier grants that tier (an operator's override, e.g. a patron's tier on another platform).
 *
 * Staff (`staff`, `owner`, `developer`) get the largest page whatever their tier: they answer users' questions.
 */
export const DONOR_TIERS = ['tier_1', 'tier_2', 'tier_3', 'tier_mythic'] as const;
export type DonorTier = (typeof DONOR_TIERS)[number];

/** The lifetime donation (US cents) at which each tier starts, in tier order. */
export const TIER_FROM_CENTS: Record<DonorTier, number> = { tier_1: 100, tier_2: 1_000, tier_3: 5_000, tier_mythic: 25_000 };

/** Page sizes of `badge.listCrafters` and `app.listOwners`: without a tier, and per tier. */
export const DEFAULT_PAGE_SIZE = 25;
export const PAGE_SIZE_BY_TIER: Record<DonorTier, number> = { tier_1: 100, tier_2: 250, tier_3: 500, tier_mythic: 1000 };
/** Roles that get the largest page (PAGE_SIZE_BY_TIER.tier_mythic) whatever the account's tier: the staff. */
export { STAFF_ROLES };

/** A role as the tier rule reads it (`account_roles`). */
export interface HeldRole {
  role: string;
  extras?: Record<string, unknown> | null;
}

/** The tier a lifetime donation total reaches, or null. */
export function tierOfDonations(cents: number): DonorTier | null {
  let tier: DonorTier | null = null;
  for (const candidate of DONOR_TIERS) if (cents >= TIER_FROM_CENTS[candidate]) tier = candidate;
  return tier;
}

/** The account's donor tier (see above), or null. */
export function donorTier(donatedCents: number, roles: readonly HeldRole[]): DonorTier | null {
  const rank = (tier: DonorTier | null) => (tier === null ? -1 : DONOR_TIERS.indexOf(tier));
  let tier = tierOfDonations(donatedCents);
  for (const held of roles) {
    const named = held.extras?.tier;
    const granted = (DONOR_TIERS as readonly unknown[]).includes(named) ? (named as DonorTier) : held.role === 'donator' ? 'tier_1' : null;
    if (rank(granted) > rank(tier)) tier = granted;
  }
  return tier;
}

/** The largest page of the donor-perk listings for an account with these donations and roles. */
export function maxPageSizeOf(donatedCents: number, roles: readonly HeldRole[]): number {
  if (roles.some((held) => STAFF_ROLES.includes(held.role))) return PAGE_SIZE_BY_TIER.tier_mythic;
  const tier = donorTier(donatedCents, roles);
  return tier ? PAGE_SIZE_BY_TIER[tier] : DEFAULT_PAGE_SIZE;
}

/** The page sizes as the listings' descriptions state them. */
export const TIER_PAGE_SIZES =
  `${DEFAULT_PAGE_SIZE} without a tier, ` +
  DONOR_TIERS.map((tier) => `${PAGE_SIZE_BY_TIER[tier]} for \`${tier}\``).join(', ') +
  ` (lifetime donations from $${TIER_FROM_CENTS.tier_1 / 100}, $${TIER_FROM_CENTS.tier_2 / 100}, $${TIER_FROM_CENTS.tier_3 / 100} ` +
  `and $${TIER_FROM_CENTS.tier_mythic / 100}; the \`donator\` role is \`tier_1\` at least, a role's \`extras.tier\` grants that tier), ` +
  `${PAGE_SIZE_BY_TIER.tier_mythic} for staff`;
