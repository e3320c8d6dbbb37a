import { LRUCache } from 'lru-cache';
import { RoleRecord } from '../dto/profile-records.dto';
import { CARD_HEAD_TEXT, CARD_TAIL_TEXT, cardTextOf } from './card-values';

/**
 * The card texts PostgreSQL has written for this process (CARD_HEAD_TEXT and CARD_TAIL_TEXT), each kept with the
 * `xmin` of the accounts row version it was written from. A statement sends the ids with the versions held (`$2`,
 * aligned with `$1`) and PostgreSQL writes a card's text again only for a row whose version differs: updated since, or
 * never seen. A row version never changes (an UPDATE writes a new one, with the writing transaction's xmin), so a held
 * text of the same version is the text PostgreSQL would write; the roles (account_roles) come with every statement.
 * Building each card's text was most of PostgreSQL's work for the friend paths' cards (docs/performance-history.md,
 * "Card texts kept by row version").
 *
 * Bounded: past CARD_TEXTS_HELD the least recently used goes first (~600 bytes each; the hubs many paths pass through
 * stay). An LRUCache, not a Map evicted by `map.delete(map.keys().next().value)`: V8 leaves a deleted entry's slot in
 * the table until it is rebuilt, and an iterator walks those from the start, so under steady churn each eviction
 * skipped over thousands of them (~17 µs at 50,000 entries; 6 % of the API's CPU under account.findFriendPath,
 * docs/performance-history.md, "Card texts evicted without walking deleted slots"). A text is used for at most
 * CARD_TEXT_HELD_MS: a transaction id comes round again only after 2³² transactions, so within minutes a row's new
 * version can never carry the xmin of the one held.
 */
export const CARD_TEXTS_HELD = 50_000;
export const CARD_TEXT_HELD_MS = 10 * 60_000;

/** What the statement sends per card: the row's version and roles, and the texts only when they were written. */
export type SentCard =
  | [accountId: number, xmin: string, roles: RoleRecord[] | null]
  | [accountId: number, xmin: string, roles: RoleRecord[] | null, head: string, tail: string];

interface HeldText {
  xmin: string;
  head: string;
  tail: string;
  /** When the statement that wrote it was sent (ms since the epoch). */
  writtenAt: number;
}

/**
 * The statement's card column over `accounts a` joined with `cardRoles` (`cr`), with `$1` the ids (int[]) and `$2`
 * the versions held for them (xid[], aligned; null where none is).
 */
export const SENT_CARD = `CASE WHEN a.xmin = ($2::xid[])[array_position($1::int[], a.account_id)]
    THEN json_build_array(a.account_id, a.xmin, cr.roles)
    ELSE json_build_array(a.account_id, a.xmin, cr.roles, ${CARD_HEAD_TEXT}, ${CARD_TAIL_TEXT}) END`;

export class CardTextCache {
  private readonly held: LRUCache<number, HeldText>;

  constructor(
    capacity = CARD_TEXTS_HELD,
    private readonly now: () => number = Date.now,
  ) {
    this.held = new LRUCache({ max: capacity });
  }

  /**
   * What one statement reads: the versions to send for `ids` (aligned), and `text`, which gives a sent card's text
   * from what the statement wrote or from what was held when it was sent (a text evicted meanwhile is still used).
   */
  lookup(ids: readonly number[]): { versions: (string | null)[]; text: (card: SentCard) => string } {
    const sentWith = new Map<number, HeldText>();
    // One clock read per statement: a text written by it counts from when it was sent (a little early, never late).
    const sentAt = this.now();
    const writtenSince = sentAt - CARD_TEXT_HELD_MS;
    const versions = ids.map((id) => {
      const held = this.held.get(id);
      if (!held || held.writtenAt < writtenSince) return null;
      sentWith.set(id, held);
      return held.xmin;
    });
    const text = (card: SentCard): string => {
      const [accountId, xmin, roles] = card;
      if (card.length === 5) {
        this.held.set(accountId, { xmin, head: card[3], tail: card[4], writtenAt: sentAt });
        return cardTextOf(card[3], roles, card[4]);
      }
      const held = sentWith.get(accountId);
      // PostgreSQL leaves the texts out only for the version sent, which was held when sent.
      if (!held || held.xmin !== xmin) throw new Error(`card ${accountId} sent without text for a version not held`);
      return cardTextOf(held.head, roles, held.tail);
    };
    return { versions, text };
  }

  get size(): number {
    return this.held.size;
  }
}
