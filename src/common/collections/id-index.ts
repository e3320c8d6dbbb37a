/**
 * Structures of the in-memory indexes (the friend graph, the rank replica): typed arrays off the JS heap, since
 * they hold millions of entries.
 */

/** Account id (0 … 2³¹−1) → dense index: open addressing on typed arrays (a Map of millions costs ~5× the memory). */
export class IdIndex {
  /** id + 1 per slot, 0 for an empty one. */
  private keys: Uint32Array;
  private values: Int32Array;
  private mask: number;
  size = 0;

  constructor(expected: number) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    this.keys = new Uint32Array(capacity);
    this.values = new Int32Array(capacity);
    this.mask = capacity - 1;
  }

  get bytes(): number {
    return this.keys.byteLength + this.values.byteLength;
  }

  /** The index of `id`, or -1. */
  get(id: number): number {
    const key = id + 1;
    for (let slot = Math.imul(id, 0x9e3779b1) & this.mask; ; slot = (slot + 1) & this.mask) {
      const found = this.keys[slot];
      if (found === key) return this.values[slot];
      if (found === 0) return -1;
    }
  }

  /** The index of `id`, the next free one if it had none. */
  add(id: number): number {
    if ((this.size + 1) * 2 > this.keys.length) this.grow();
    const key = id + 1;
    for (let slot = Math.imul(id, 0x9e3779b1) & this.mask; ; slot = (slot + 1) & this.mask) {
      const found = this.keys[slot];
      if (found === key) return this.values[slot];
      if (found === 0) {
        this.keys[slot] = key;
        this.values[slot] = this.size;
        return this.size++;
      }
    }
  }

  private grow(): void {
    const { keys, values } = this;
    this.keys = new Uint32Array(keys.length * 2);
    this.values = new Int32Array(keys.length * 2);
    this.mask = this.keys.length - 1;
    for (let slot = 0; slot < keys.length; slot++) {
      if (!keys[slot]) continue;
      let to = Math.imul(keys[slot] - 1, 0x9e3779b1) & this.mask;
      while (this.keys[to]) to = (to + 1) & this.mask;
      this.keys[to] = keys[slot];
      this.values[to] = values[slot];
    }
  }
}
