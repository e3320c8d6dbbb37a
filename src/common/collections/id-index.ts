/**
 * Structures of the in-memory indexes (the friend graph, the rank replica): typed arrays off the JS heap, since
 * they hold millions of entries.
 */

/**
 * Account id (0 … 2³¹−1) → dense index: open addressing on one typed array (a Map of millions costs ~5× the memory).
 * A slot is two adjacent entries, the id + 1 (0: empty) and its index, so a look-up at a million accounts misses the
 * CPU's caches once, not once for the key and again for the value (docs/performance-history.md, "The friend search's
 * cache misses").
 */
export class IdIndex {
  /** Per slot: id + 1 at 2·slot (0 for an empty slot; 2³¹ wraps to −2³¹, still not 0), the index at 2·slot + 1. */
  private slots: Int32Array;
  private mask: number;
  size = 0;

  constructor(expected: number) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    this.slots = new Int32Array(capacity * 2);
    this.mask = capacity - 1;
  }

  get bytes(): number {
    return this.slots.byteLength;
  }

  /** The index of `id`, or -1. */
  get(id: number): number {
    const key = (id + 1) | 0;
    const { slots, mask } = this;
    for (let slot = Math.imul(id, 0x9e3779b1) & mask; ; slot = (slot + 1) & mask) {
      const found = slots[2 * slot];
      if (found === key) return slots[2 * slot + 1];
      if (found === 0) return -1;
    }
  }

  /** The index of `id`, the next free one if it had none. */
  add(id: number): number {
    if ((this.size + 1) * 2 > this.mask + 1) this.grow();
    const key = (id + 1) | 0;
    const { slots, mask } = this;
    for (let slot = Math.imul(id, 0x9e3779b1) & mask; ; slot = (slot + 1) & mask) {
      const found = slots[2 * slot];
      if (found === key) return slots[2 * slot + 1];
      if (found === 0) {
        slots[2 * slot] = key;
        slots[2 * slot + 1] = this.size;
        return this.size++;
      }
    }
  }

  /**
   * Replaces every index i by `valueOf(i)`, so that `get` answers those instead (the friend graph maps an account
   * straight to its list's position). `add` must not be called afterwards: it would hand out dense indexes again.
   */
  remap(valueOf: (index: number) => number): void {
    const { slots } = this;
    for (let value = 1; value < slots.length; value += 2) if (slots[value - 1]) slots[value] = valueOf(slots[value]);
  }

  private grow(): void {
    const old = this.slots;
    const capacity = (this.mask + 1) * 2;
    this.slots = new Int32Array(capacity * 2);
    this.mask = capacity - 1;
    for (let from = 0; from < old.length; from += 2) {
      const key = old[from];
      if (!key) continue;
      let to = Math.imul(key - 1, 0x9e3779b1) & this.mask;
      while (this.slots[2 * to]) to = (to + 1) & this.mask;
      this.slots[2 * to] = key;
      this.slots[2 * to + 1] = old[from + 1];
    }
  }
}
