import { ChangeKind, FeedEntry } from '../../src/change-feed/change-entry';
import { FeedCursor, FeedRead } from '../../src/change-feed/feed-cursor';

const entry = (xid: number, id: number, kind: ChangeKind = 'update-run'): FeedEntry => ({ id, xid, kind, accountIds: [id], payload: null });
const read = (entries: FeedEntry[], horizon: number, extra: Partial<FeedRead> = {}): FeedRead => ({
  entries,
  horizon,
  truncated: false,
  pruned: null,
  ...extra,
});
/** Steps the cursor through a read that must not be `gone`; the ids it applies and the cursor after. */
const step = (cursor: FeedCursor, r: FeedRead) => {
  const result = cursor.step(r);
  if (result.gone) throw new Error('gone');
  return { ids: result.apply.map((e) => e.id), next: result.next, complete: result.complete };
};

describe('FeedCursor (the follower’s positions, horizons and gaps)', () => {
  it('should apply final entries in order and move past the horizon once read to the end', () => {
    const { ids, next, complete } = step(FeedCursor.at(100), read([entry(100, 1), entry(101, 3), entry(105, 2)], 110));
    expect(ids).toEqual([1, 3, 2]);
    expect(complete).toBe(true);
    expect(next.position).toEqual({ xid: 110, id: 0 });
  });

  it('should apply a committed entry above the horizon early, once, and skip it when it becomes final', () => {
    // Transaction 101 is still open (horizon 101): 102's entry is visible, 101's entry does not exist yet (a gap).
    let cursor = FeedCursor.at(100);
    let s = step(cursor, read([entry(100, 1), entry(102, 3)], 101));
    expect(s.ids).toEqual([1, 3]);
    expect(s.next.position).toEqual({ xid: 101, id: 0 });
    expect(s.next.earlyCount).toBe(1);
    cursor = s.next;
    // Read again before 101 ends: nothing new.
    s = step(cursor, read([entry(102, 3)], 101));
    expect(s.ids).toEqual([]);
    cursor = s.next;
    // 101 commits late, with an id lower than 3's: the gap fills, and only its entry is applied.
    s = step(cursor, read([entry(101, 2), entry(102, 3)], 103));
    expect(s.ids).toEqual([2]);
    expect(s.next.earlyCount).toBe(0);
    expect(s.next.position).toEqual({ xid: 103, id: 0 });
  });

  it('should leave a gap of a transaction that rolled back behind once the horizon passes it', () => {
    const s = step(FeedCursor.at(100), read([entry(100, 1), entry(103, 4)], 104));
    expect(s.ids).toEqual([1, 4]);
    expect(s.next.position).toEqual({ xid: 104, id: 0 });
    expect(s.next.earlyCount).toBe(0);
  });

  it('should stop at the last final entry of a truncated read, and not claim completeness', () => {
    const s = step(FeedCursor.at(100), read([entry(100, 1), entry(100, 2), entry(120, 9)], 110, { truncated: true }));
    expect(s.ids).toEqual([1, 2, 9]);
    expect(s.complete).toBe(false);
    expect(s.next.position).toEqual({ xid: 100, id: 2 });
    // The next read starts after (100, 2) and finds the early entry again: not applied twice.
    const again = step(s.next, read([entry(120, 9)], 110));
    expect(again.ids).toEqual([]);
    expect(again.next.position).toEqual({ xid: 110, id: 0 });
  });

  it('should keep its position when the horizon does not move (a long transaction elsewhere)', () => {
    const s = step(FeedCursor.at(100), read([], 100));
    expect(s.next.position).toEqual({ xid: 100, id: 0 });
    expect(s.complete).toBe(true);
  });

  it('should tell when the feed was pruned past its position', () => {
    const cursor = new FeedCursor({ xid: 100, id: 7 });
    expect(cursor.step(read([], 130, { pruned: 100 })).gone).toBe(true);
    expect(cursor.step(read([], 130, { pruned: 99 })).gone).toBe(false);
    expect(cursor.step(read([], 130, { pruned: null })).gone).toBe(false);
  });
});
