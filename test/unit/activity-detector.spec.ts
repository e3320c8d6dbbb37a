import { detectActivity } from '../../src/activity/activity-detector';

describe('detectActivity', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const badge = (badgeId: number, level: number) => ({ badgeId, level, xp: level * 100, completionTime: new Date('2025-12-31T00:00:00Z') });

  it('should report nothing for an account’s first update', () => {
    expect(detectActivity(new Map(), [badge(1, 5)], { previous: 0, current: 30 }, true, now)).toEqual([]);
  });

  it('should report new badges and higher levels, not unchanged ones', () => {
    const events = detectActivity(
      new Map([
        [1, 2],
        [2, 1],
      ]),
      [badge(1, 3), badge(2, 1), badge(3, 1)],
      { previous: 12, current: 14 },
      false,
      now,
    );
    expect(events.map((e) => [e.eventType, e.data.badge?.badgeId, e.data.badge?.level])).toEqual([
      ['badge_crafted', 1, 3],
      ['badge_crafted', 3, 1],
    ]);
  });

  it('should report crossing a tenth level', () => {
    const events = detectActivity(new Map(), [], { previous: 19, current: 21 }, false, now);
    expect(events).toEqual([{ eventType: 'level_milestone', occurredAt: now, data: { level: { previous: 19, current: 21 } } }]);
  });
});
