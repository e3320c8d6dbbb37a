import { RoleRecord } from '../dto/profile-records.dto';
import { CARD_TAIL_TEXT, cardTextOf, recordTextFields } from '../cards/card-values';

/**
 * A card as the replica holds it: the JSON texts of its values, in recordTextFields' order, then its tail
 * (CARD_TAIL_TEXT: location objects, creation date, closing brace), then the version of the account row they were
 * read from (its `xmin`), joined by SEPARATOR. The field names, most of a card's ~660 bytes, are not held: ~260 bytes
 * per account instead. PostgreSQL writes the texts with the same expressions as CARD_HEAD_TEXT, so a card rendered
 * here is byte for byte the card PostgreSQL would write.
 *
 * The version lets a reader that must not be a moment behind (the profile, accounts/mappers/profile-text.ts) use the
 * texts only when its own statement finds the row at that same version: a row's `xmin` is the transaction that wrote
 * that version of it, and every update writes a new one.
 */
const FIELDS = recordTextFields();

/** Never inside a JSON text: JSON escapes every control character (`\u0001`) inside strings, and has none outside. */
const SEPARATOR = '\u0001';

/** The SQL of a card's tokens, over the account aliased `a`. */
export const CARD_TOKENS_TEXT = [...FIELDS.map(([, sql]) => sql), `(${CARD_TAIL_TEXT})`, 'a.xmin::text'].join(' || chr(1) || ');

/** A card's record value texts (recordTextFields' order) and its tail, from its tokens (its version left out). */
export function splitCardTokens(tokens: string): { values: string[]; tail: string } {
  const values = tokens.split(SEPARATOR);
  if (values.length !== FIELDS.length + 2) throw new Error(`a card of ${values.length} tokens, not ${FIELDS.length + 2}`);
  values.pop();
  const tail = values.pop()!;
  return { values, tail };
}

/** The version of the row a card's tokens were read from (its last token). */
export function cardTokensVersion(tokens: string): string {
  return tokens.slice(tokens.lastIndexOf(SEPARATOR) + 1);
}

/** `{"steamId":`, `,"name":`, … : what CARD_HEAD_TEXT (and the profile's statement) writes before each value. */
export const RECORD_VALUE_PREFIXES = FIELDS.map(([field], i) => `${i ? ',' : '{'}"${field}":`);

/** The card's JSON text from its tokens and roles: CARD_HEAD_TEXT, the roles, CARD_TAIL_TEXT (cardTextOf). */
export function cardTextOfTokens(tokens: string, roles: RoleRecord[] | null): string {
  const { values, tail } = splitCardTokens(tokens);
  let head = '';
  for (let i = 0; i < RECORD_VALUE_PREFIXES.length; i++) head += RECORD_VALUE_PREFIXES[i] + values[i];
  return cardTextOf(`${head},"images":[],"roles":`, roles, tail);
}
