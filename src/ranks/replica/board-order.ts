/**
 * Orders accounts as a board does (higher score first, then the lower id) without a comparator: a stable LSD radix
 * sort by 16-bit digits, the id's two first and the inverted score's two last. A comparator sort of a million
 * accounts held the event loop ~0.7 s per column; this takes a few tens of ms.
 */
import { TimeSlices } from '../../common/scheduling/time-slices';

const DIGIT = 16;
const BUCKETS = 1 << DIGIT;

/** The indexes i in [0, length) with scores[i] > 0, in board order; its passes in slices (time-slices.ts). */
export async function boardOrder(scores: Uint32Array, ids: Uint32Array, length: number, slices = new TimeSlices()): Promise<Uint32Array> {
  let order = new Uint32Array(length);
  let scoring = 0;
  await slices.forEach(length, (i) => {
    if (scores[i] > 0) order[scoring++] = i;
  });
  order = order.subarray(0, scoring);
  let spare = new Uint32Array(scoring);
  const counts = new Uint32Array(BUCKETS);
  const passes: [Uint32Array, number, boolean][] = [
    [ids, 0, false],
    [ids, DIGIT, false],
    [scores, 0, true],
    [scores, DIGIT, true],
  ];
  for (const [keys, shift, inverted] of passes) {
    counts.fill(0);
    const digit = (i: number) => ((inverted ? ~keys[i] : keys[i]) >>> shift) & (BUCKETS - 1);
    const [from, to] = [order, spare];
    await slices.forEach(scoring, (k) => counts[digit(from[k])]++);
    for (let b = 0, sum = 0; b < BUCKETS; b++) {
      const n = counts[b];
      counts[b] = sum;
      sum += n;
    }
    await slices.forEach(scoring, (k) => (to[counts[digit(from[k])]++] = from[k]));
    [order, spare] = [spare, order];
  }
  return order;
}
