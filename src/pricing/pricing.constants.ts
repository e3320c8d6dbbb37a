/** The BullMQ queue of the pricing job, its one scheduler and its one job type. */
export const PRICING_QUEUE = 'market-pricing';
export const PRICING_SCHEDULER = 'market-pricing-cycle';
export const PRICING_CYCLE_JOB = 'pricing.cycle';

/** A cycle stops taking apps at this share of the interval, so it ends before the next one is due. */
export const CYCLE_SHARE_OF_INTERVAL = 0.8;
