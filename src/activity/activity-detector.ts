import { ActivityEventData, ActivityEventType } from './entities/activity-event.entity';

export interface DetectedEvent {
  eventType: ActivityEventType;
  occurredAt: Date;
  data: ActivityEventData;
}

export interface HeldBadge {
  badgeId: number;
  level: number;
  xp: number;
  completionTime: Date;
}

/** Level milestones are every tenth level. */
const LEVEL_STEP = 10;

/**
 * Events one update reveals, from the badges before and after it: every badge crafted or levelled up, and
 * each tenth level crossed. The first update of an account only sets the baseline: its whole history is not
 * news. Early-craft (scarcity) events need the holder order and are added by the writer.
 */
export function detectActivity(
  before: Map<number, number>,
  after: HeldBadge[],
  levels: { previous: number; current: number },
  firstUpdate: boolean,
  now: Date,
): DetectedEvent[] {
  if (firstUpdate) return [];
  const events: DetectedEvent[] = after
    .filter((badge) => (before.get(badge.badgeId) ?? 0) < badge.level)
    .map((badge) => ({
      eventType: 'badge_crafted',
      occurredAt: badge.completionTime,
      data: { badge: { badgeId: badge.badgeId, level: badge.level, xp: badge.xp, completionTime: badge.completionTime.toISOString() } },
    }));
  if (Math.floor(levels.current / LEVEL_STEP) > Math.floor(levels.previous / LEVEL_STEP)) {
    events.push({ eventType: 'level_milestone', occurredAt: now, data: { level: levels } });
  }
  return events;
}

/** A top-N bucket entered on a board (RankHistoryRecorder's RankMilestone). */
export interface EnteredTop {
  leaderboard: string;
  top: number;
  previous: number;
  current: number;
}

/**
 * `rank_milestone` events: one per board whose global top 10, 100 or 1000 the account entered since its previous
 * refresh, as the refresh placed it (the tightest bucket entered; see ranks/populated-boards.ts for when a board
 * counts). Stamped with the refresh's time.
 */
export function rankMilestoneEvents(entered: EnteredTop[], now: Date): DetectedEvent[] {
  return entered.map((m) => ({
    eventType: 'rank_milestone',
    occurredAt: now,
    data: {
      rank: { leaderboard: m.leaderboard, bucket: `top_${m.top}`, previous: m.previous, current: m.current, location: { type: 'global' } },
    },
  }));
}
