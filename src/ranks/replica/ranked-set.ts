/**
 * One board in one scope, in memory: the accounts scoring above 0, in the boards' order (higher score first, then
 * the lower account id: what ZREVRANK reads from the engine's sorted sets, see memberOf). Answers how many accounts
 * are ahead of a (score, id) in O(log N), and takes an insert or a removal in O(log N + BLOCK).
 *
 * Sorted blocks of at most BLOCK entries, each one typed array of (score, id) pairs (8 bytes an entry, off the JS
 * heap; a pair shares its cache line). A write shifts entries inside one block only. A read finds its block in the `directory`: each block's last entry and
 * the number of entries before it, in three flat arrays (24 bytes a block), so that only the last step of a look-up
 * reaches into a block's memory, which at a million accounts is mostly out of the CPU's caches. A write drops the
 * directory; the next read builds it again in O(blocks) (writes are an update's handful, reads the profiles').
 */

export const BLOCK = 512;
/** A bulk load leaves a quarter of each block free, so that inserts rarely split one. */
const LOAD_FILL = (BLOCK * 3) >> 2;
const FIRST_CAPACITY = 8;

/** Entry i is (pairs[2i], pairs[2i + 1]) = (score, id). */
interface Block {
  pairs: Uint32Array;
  n: number;
}

interface Directory {
  lastScores: Uint32Array;
  lastIds: Uint32Array;
  starts: Float64Array;
}

/** Whether entry a is ahead of entry b on the board. */
const ahead = (aScore: number, aId: number, bScore: number, bId: number): boolean => aScore > bScore || (aScore === bScore && aId < bId);

const newBlock = (capacity: number): Block => ({ pairs: new Uint32Array(capacity * 2), n: 0 });
const capacityOf = (block: Block): number => block.pairs.length >> 1;

export class RankedSet {
  private blocks: Block[] = [];
  private directory: Directory | null = null;
  size = 0;

  constructor(private readonly blockSize = BLOCK) {}

  /** A set of entries already in board order (as `order` lists them, indexes into `scores` and `ids`). */
  static fromSorted(scores: ArrayLike<number>, ids: ArrayLike<number>, order: ArrayLike<number>, blockSize = BLOCK): RankedSet {
    const set = new RankedSet(blockSize);
    const fill = blockSize === BLOCK ? LOAD_FILL : Math.max(1, (blockSize * 3) >> 2);
    for (let from = 0; from < order.length; from += fill) {
      const count = Math.min(fill, order.length - from);
      const block = newBlock(order.length <= fill ? Math.max(FIRST_CAPACITY, count) : blockSize);
      for (let i = 0; i < count; i++) {
        block.pairs[2 * i] = scores[order[from + i]];
        block.pairs[2 * i + 1] = ids[order[from + i]];
      }
      block.n = count;
      set.blocks.push(block);
    }
    set.size = order.length;
    return set;
  }

  /** How many entries are ahead of (score, id): the 0-based rank of that entry when it is in the set. */
  countAhead(score: number, id: number): number {
    const { lastScores, lastIds, starts } = (this.directory ??= this.directoryOf());
    let lo = 0;
    let hi = lastScores.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ahead(lastScores[mid], lastIds[mid], score, id)) lo = mid + 1;
      else hi = mid;
    }
    if (lo === lastScores.length) return this.size;
    return starts[lo] + this.positionIn(this.blocks[lo], score, id);
  }

  insert(score: number, id: number): void {
    if (!this.blocks.length) this.blocks.push(newBlock(FIRST_CAPACITY));
    const b = Math.min(this.blockOf(score, id), this.blocks.length - 1);
    let block = this.blocks[b];
    let at = this.positionIn(block, score, id);
    if (block.n === this.blockSize) {
      // Split the full block in two halves; the entry goes into the half its position falls in.
      const half = block.n >> 1;
      const right = newBlock(this.blockSize);
      right.pairs.set(block.pairs.subarray(2 * half, 2 * block.n));
      right.n = block.n - half;
      block.n = half;
      this.blocks.splice(b + 1, 0, right);
      if (at > half) {
        block = right;
        at -= half;
      }
    } else if (block.n === capacityOf(block)) {
      const grown = newBlock(Math.min(this.blockSize, capacityOf(block) * 2));
      grown.pairs.set(block.pairs);
      grown.n = block.n;
      this.blocks[b] = block = grown;
    }
    block.pairs.copyWithin(2 * at + 2, 2 * at, 2 * block.n);
    block.pairs[2 * at] = score;
    block.pairs[2 * at + 1] = id;
    block.n++;
    this.size++;
    this.directory = null;
  }

  /** Removes (score, id); false when it was not in the set. */
  delete(score: number, id: number): boolean {
    const b = this.blockOf(score, id);
    if (b === this.blocks.length) return false;
    const block = this.blocks[b];
    const at = this.positionIn(block, score, id);
    if (at === block.n || block.pairs[2 * at] !== score || block.pairs[2 * at + 1] !== id) return false;
    block.pairs.copyWithin(2 * at, 2 * at + 2, 2 * block.n);
    block.n--;
    this.size--;
    if (block.n === 0) this.blocks.splice(b, 1);
    this.directory = null;
    return true;
  }

  /** Bytes held by the entries' arrays. */
  get bytes(): number {
    return this.blocks.reduce((sum, block) => sum + block.pairs.byteLength, 0);
  }

  /** The first block whose last entry is not ahead of (score, id); blocks.length when every entry is (for writes). */
  private blockOf(score: number, id: number): number {
    let lo = 0;
    let hi = this.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const { pairs, n } = this.blocks[mid];
      if (ahead(pairs[2 * n - 2], pairs[2 * n - 1], score, id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** How many of the block's entries are ahead of (score, id). */
  private positionIn({ pairs, n }: Block, score: number, id: number): number {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ahead(pairs[2 * mid], pairs[2 * mid + 1], score, id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private directoryOf(): Directory {
    const count = this.blocks.length;
    const directory = { lastScores: new Uint32Array(count), lastIds: new Uint32Array(count), starts: new Float64Array(count) };
    let before = 0;
    for (let b = 0; b < count; b++) {
      const { pairs, n } = this.blocks[b];
      directory.lastScores[b] = pairs[2 * n - 2];
      directory.lastIds[b] = pairs[2 * n - 1];
      directory.starts[b] = before;
      before += n;
    }
    return directory;
  }
}
