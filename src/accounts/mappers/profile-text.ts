import { sqlJsonIsoTime, sqlJsonMembers, sqlJsonString } from '../../common/wire/sql-json-text';
import { COLUMN_BOARDS, PROFILE_RANK_BOARDS } from '../../ranks/account-boards';
import { ColumnRanks } from '../../ranks/column-ranks';
import { SCOPE_LEVELS } from '../../ranks/rank-scopes';
import { betterRank, rankCounts } from '../../ranks/populated-boards';
import { Image, RoleRecord } from '../../account-records/dto/profile-records.dto';
import { PROFILE_EXTRAS_SQL } from '../profile-extras';
import { CARD_CREATED_AT_MEMBER, LOCATION_TEXT, recordTextFields } from '../../account-records/cards/card-values';
import { RECORD_VALUE_PREFIXES, splitCardTokens } from '../../account-records/card-replica/card-tokens';
import { BadgeCosts } from '../../pricing/badge-costs';
import { CONNECTION_JSON_SQL } from '../../connections/mappers/connection.mapper';

/**
 * # The profile as JSON text
 *
 * `account.getInfo` is the most asked per-account read, and most of its API time went to the round trip's bytes: the
 * driver describing and parsing the account row's 46 columns (timestamps into Dates), `toProfile` mapping them and
 * `JSON.stringify` writing them again. Here PostgreSQL writes the profile's text itself, in two parts around what only
 * the API knows or what must stay objects: its images and roles (free-form jsonb extras, which PostgreSQL would
 * space otherwise), then its live ranks from the rank engine. One statement by id (PROFILE_TEXT_SQL) reads it with
 * the extras and the ranked columns' scores; `profileText` joins the parts. The record's part of that text (its
 * fields a card shows too) the process's card replica usually holds already: when it holds the row's current version,
 * the API writes that part from the replica's texts and PostgreSQL skips it (PROFILE_TEXT_SQL).
 *
 * The text is exactly what JSON.stringify writes for the object profile of `toProfile` with its ranks and images
 * assigned (same keys in the same order, same values; sql-json-text.ts); test/e2e/profile-text.e2e.spec.ts compares
 * the two byte for byte, odd names, every location combination, roles, images, costs and ranks included.
 */

const str = sqlJsonString;

/**
 * The public connections (verified, not hidden), oldest first, as the text of a JSON array: one index range of
 * account_connections inside the profile's statement (mostly empty), so the profile pays no round trip for them.
 */
const CONNECTIONS_TEXT = `(SELECT '[' || COALESCE(string_agg(${CONNECTION_JSON_SQL}, ',' ORDER BY c.created_at, c.connection_id), '') || ']'
     FROM account_connections c WHERE c.account_id = a.account_id AND c.verified AND NOT c.hidden)`;

/** The profile's own fields after accountRecord's (toProfile), up to `connections`; the ranks follow. */
const PROFILE_FIELDS: [string, string][] = [
  ['accountId', 'a.account_id::text'],
  ['theme', str('a.theme')],
  ['appPrivacy', str('a.app_privacy')],
  ['friendPrivacy', str('a.friend_privacy')],
  ['communityBan', 'a.community_ban::text'],
  ['lastBanDate', sqlJsonIsoTime('a.last_ban_date')],
  ['createdAt', sqlJsonIsoTime('a.platform_created_at')],
  ['updatedAt', sqlJsonIsoTime('a.updated_at')],
  ['nextAllowedTime', sqlJsonIsoTime('a.next_allowed_time')],
  ['lastQueueStatus', str('a.last_queue_status')],
  ['shortlinkDomain', `'null'`],
  ['connections', CONNECTIONS_TEXT],
];

/** The record's fields around its cost fields, which the API writes (profileText): they are priced there. */
const COST_FIELDS = ['appCost', 'foilBadgeCost', 'normalBadgeCost'];
const RECORD_FIELDS = recordTextFields();
const FIRST_COST = RECORD_FIELDS.findIndex(([field]) => field === COST_FIELDS[0]);
if (RECORD_FIELDS.slice(FIRST_COST, FIRST_COST + COST_FIELDS.length).some(([field], i) => field !== COST_FIELDS[i]))
  throw new Error('profile-text: the record’s cost fields are no longer together in their order');

/**
 * The profiles of the accounts $1 (an int array), each row with `at`, the 1-based position of its account there: its
 * record's text in three parts (`head`, from `{` to `steamSetsScore`'s value; `middle`, from `economyBan` to
 * `steamVanity`'s value, the cost fields going between the two; `location`, its location objects), then `own` (the
 * profile's own fields up to `connections`), its images, roles and best ranks as PROFILE_EXTRAS_SQL reads them, the ids
 * and levels of its badges (priced by BadgePriceBook), and whether it was ever refreshed. An account not stored has no
 * row. Several profiles asked at once are read by one statement (profile-batches.ts). The arrays are read through
 * sub-selects so that no plan sees their length: given to unnest as they are, a custom plan (which knows it) always
 * looked cheaper than the generic one (which assumes a hundred rows), and PostgreSQL planned every execution again.
 *
 * $2 holds, at the same positions, the version of each row this process's card replica holds the record's texts of
 * (card-tokens.ts), or ''. When the row is at that version, the replica's texts are the row's, and the three record
 * parts come back null: the API writes them from the replica (recordTextOfTokens), PostgreSQL need not (its CPU per
 * statement 215 → 200 µs: docs/performance-history.md, "The profile's record from the card replica"). Otherwise (the
 * replica is behind, or holds no such account) PostgreSQL writes them as ever.
 */
export const PROFILE_TEXT_SQL = `
  SELECT q.at::int AS at,
         a.updated_at IS NOT NULL AS refreshed,
         CASE WHEN a.xmin::text = q.version THEN NULL ELSE '{' || ${sqlJsonMembers(RECORD_FIELDS.slice(0, FIRST_COST))} END AS head,
         CASE WHEN a.xmin::text = q.version THEN NULL
              ELSE ${sqlJsonMembers(RECORD_FIELDS.slice(FIRST_COST + COST_FIELDS.length), true)} END AS middle,
         CASE WHEN a.xmin::text = q.version THEN NULL ELSE ${LOCATION_TEXT} END AS location,
         ${sqlJsonMembers(PROFILE_FIELDS, true)} AS own,
         x.roles, x.best, x.images, x.badge_ids, x.badge_levels
    FROM unnest((SELECT $1::int[]), (SELECT $2::text[])) WITH ORDINALITY AS q(account_id, version, at)
    JOIN accounts a ON a.account_id = q.account_id
   CROSS JOIN LATERAL (${PROFILE_EXTRAS_SQL}) x`;

/** The record's parts of a profile's text (see PROFILE_TEXT_SQL). */
export interface ProfileRecordText {
  head: string;
  middle: string;
  location: string;
}

export interface ProfileTextRow {
  /** The 1-based position of the row's account in the statement's $1. */
  at: number;
  refreshed: boolean;
  /** Null, with `middle` and `location`, when the row is at the version the statement was given. */
  head: string | null;
  middle: string | null;
  location: string | null;
  own: string;
  roles: RoleRecord[];
  best: { leaderboard: string; ranks: number[]; totals: number[] }[];
  images: Image[];
  /** The account's badge ids and levels, in the same order, as PostgreSQL writes an int array: `{1,2,3}`. */
  badge_ids: string;
  badge_levels: string;
}

/** The record's parts as the statement wrote them, or null when it left them to the replica's texts. */
export function recordTextOfRow(row: ProfileTextRow): ProfileRecordText | null {
  return row.head === null ? null : { head: row.head, middle: row.middle ?? '', location: row.location ?? '' };
}

/** What each of the record's value texts is preceded by in the head and in the middle, as sqlJsonMembers writes. */
const HEAD_PREFIXES = RECORD_VALUE_PREFIXES.slice(0, FIRST_COST);
const MIDDLE_AT = FIRST_COST + COST_FIELDS.length;
const MIDDLE_PREFIXES = RECORD_VALUE_PREFIXES.slice(MIDDLE_AT);

/**
 * The record's parts from a card replica's tokens, byte for byte what PostgreSQL writes in PROFILE_TEXT_SQL: the same
 * value texts (card-tokens.ts), behind the same member names; the location is the card tail's, up to its creation
 * date.
 */
export function recordTextOfTokens(tokens: string): ProfileRecordText {
  const { values, tail } = splitCardTokens(tokens);
  let head = '';
  for (let i = 0; i < HEAD_PREFIXES.length; i++) head += HEAD_PREFIXES[i] + values[i];
  let middle = '';
  for (let i = 0; i < MIDDLE_PREFIXES.length; i++) middle += MIDDLE_PREFIXES[i] + values[MIDDLE_AT + i];
  return { head, middle, location: tail.slice(0, tail.lastIndexOf(CARD_CREATED_AT_MEMBER)) };
}

/** The numbers of an int array's text (`{1,2,3}`): JSON.parse reads a list of numbers faster than the driver's parser. */
export function intsOf(arrayText: string): number[] {
  return JSON.parse(`[${arrayText.slice(1, -1)}]`) as number[];
}

/** Each board of the profile's ranks, in their order, with the column it ranks and its entries' opening text. */
const PROFILE_BOARDS = PROFILE_RANK_BOARDS.map((board) => {
  // Written into the text as they are: a name that needed escaping would break it.
  if (!/^[a-z_]+$/.test(board)) throw new Error(`profile-text: board name ${board} needs escaping`);
  return {
    board,
    column: COLUMN_BOARDS[board as keyof typeof COLUMN_BOARDS]!,
    opening: `{"leaderboard":"${board}","ranks":"`,
  };
});
const LEVELS = SCOPE_LEVELS.length;
const BEST_RANKS = new Int32Array(LEVELS);
const BEST_TOTALS = new Int32Array(LEVELS);

/**
 * The profile's `currentRanks` and `currentBestRanks` members: the account's ranks on every column board in its five
 * scopes, live from the rank engine, and the best it has held (kept by the update worker, merged with the current
 * ones) with each scope's total when it was reached; both null for an account never refreshed. A rank counts as a
 * best only on a populated board (`minAccounts` tracked accounts in the scope, ranks/populated-boards.ts); a zero
 * value is rank 0 and never counts. Written as text straight from the flat ranks (ColumnRanks), as JSON.stringify
 * writes the objects (CurrentLeaderboardRank, BestLeaderboardRank): ranks and totals as CSV in the order global,
 * region, country, state, city; by concatenation (a hand-written byte writer measured no steady 5 % better:
 * docs/architecture.md, "Hand-written, and why").
 */
export function profileRanksText(current: ColumnRanks | null, best: ProfileTextRow['best'], minAccounts: number): string {
  if (!current) return '"currentRanks":null,"currentBestRanks":null';
  const { columns, ranks, totals } = current;
  // Where each board's ranks start in `ranks`, for both members.
  const starts = PROFILE_BOARDS.map(({ column }) => columns.indexOf(column) * LEVELS);
  let text = '"currentRanks":[';
  PROFILE_BOARDS.forEach(({ opening }, b) => {
    const at = starts[b];
    text += `${b ? ',' : ''}${opening}${csv(ranks, at)}","totals":"${csv(totals, 0)}"}`;
  });
  text += '],"currentBestRanks":[';
  const bestRanks = BEST_RANKS;
  const bestTotals = BEST_TOTALS;
  PROFILE_BOARDS.forEach(({ board, opening }, b) => {
    const at = starts[b];
    const kept = best.find((entry) => entry.leaderboard === board);
    for (let level = 0; level < LEVELS; level++) {
      // A kept best counts while its total does (a row kept before totals were recorded has none).
      const keptTotal = kept?.totals?.[level] ?? 0;
      const keptRank = keptTotal >= minAccounts ? (kept?.ranks[level] ?? 0) : 0;
      const rank = ranks[at + level];
      const better = rankCounts(rank, totals[level], minAccounts) && betterRank(keptRank, rank);
      bestRanks[level] = better ? rank : keptRank;
      bestTotals[level] = better ? totals[level] : keptRank ? keptTotal : 0;
    }
    text += `${b ? ',' : ''}${opening}${csv(bestRanks, 0)}","totals":"${csv(bestTotals, 0)}"}`;
  });
  return `${text}]`;
}

/** The LEVELS numbers of `values` from `at`, comma-separated. */
function csv(values: ArrayLike<number>, at: number): string {
  let text = `${values[at]}`;
  for (let level = 1; level < LEVELS; level++) text += `,${values[at + level]}`;
  return text;
}

/**
 * The whole answer's text: `$schema` link first, as linkWireSchemas puts it, then the profile (its record's parts from
 * the statement or from the card replica). The costs are toBadgeCosts' (sums of cents, clamped to int32); `ranks` is profileRanksText's.
 */
export function profileText(schemaLink: string, record: ProfileRecordText, row: ProfileTextRow, costs: BadgeCosts, ranks: string): string {
  return (
    `{"$schema":${JSON.stringify(schemaLink)},${record.head.slice(1)},"appCost":${costs.appCost},"foilBadgeCost":` +
    `${costs.foilBadgeCost},"normalBadgeCost":${costs.normalBadgeCost}${record.middle},"images":${JSON.stringify(row.images)},"roles":` +
    `${JSON.stringify(row.roles)}${record.location}${row.own},${ranks}}`
  );
}
