/**
 * One board in one scope, in memory: the accounts scoring above 0, in the boards' order (higher score first, then
 * the lower account id: what ZREVRANK reads from the engine's sorted sets, see memberOf). Answers how many accounts
 * are ahead of a (score, id) in O(log N), and takes an insert or a removal in O(log N + BLOCK).
 *
 * Sorted blocks of at most BLOCK entries, each a page of one typed array of (score, id) pairs (8 bytes an entry, off
 * the JS heap; a pair shares its cache line). A write shifts entries inside one block only. A read finds its block in
 * the `directory`: each block's last entry and the number of entries before it, in flat arrays (16 bytes a block),
 * so that only the last step of a look-up reaches into a block's memory, which at a million accounts is mostly out of
 * the CPU's caches. A write drops the directory; the next read builds it again in O(blocks) (writes are an update's
 * handful, reads the profiles').
 *
 * Why pages of one array rather than an object and an array per block: a look-up then reads the block's entries
 * straight from the set's one array, where it first went through the block's object and its array's header, each
 * one more miss of the caches: ~1.25 → ~0.8 µs a look-up over sets of a million entries, and a profile makes ~70
 * (docs/performance-history.md, "Requests born with Express's prototypes; a board's blocks as pages of one array").
 * A set that fits in one block keeps that one block in an array of its own size (most scopes hold a few accounts);
 * it takes pages once it splits.
 */

export const BLOCK = 512;
/** A bulk load leaves a quarter of each block free, so that inserts rarely split one. */
const LOAD_FILL = (BLOCK * 3) >> 2;
const FIRST_CAPACITY = 8;

interface Directory {
  /** Block b's last entry is (lasts[2b], lasts[2b + 1]). */
  lasts: Uint32Array;
  starts: Float64Array;
}

/** Whether entry a is ahead of entry b on the board. */
const ahead = (aScore: number, aId: number, bScore: number, bId: number): boolean => aScore > bScore || (aScore === bScore && aId < bId);

export class RankedSet {
  /**
   * The entries: page p holds its block's entries from p · stride on, entry i being (data[at + 2i], data[at + 2i + 1]).
   * Before the set's first split it is a single page as long as its capacity (stride unused).
   */
  private data = new Uint32Array(0);
  /** Entries per page. */
  private counts = new Int32Array(1);
  /** Pages in board order: block b is page order[b]. */
  private order = new Int32Array(1);
  private blockCount = 0;
  private paged = false;
  private readonly freePages: number[] = [];
  private directory: Directory | null = null;
  size = 0;
  /** The entries' scores added up (exact: at most 2³² entries of scores below 2³², under 2⁵³ in practice). */
  sum = 0;
  /** Uint32s from one page to the next. */
  private readonly stride: number;

  constructor(private readonly blockSize = BLOCK) {
    this.stride = blockSize * 2;
  }

  /** A set of entries already in board order (as `order` lists them, indexes into `scores` and `ids`). */
  static fromSorted(scores: ArrayLike<number>, ids: ArrayLike<number>, order: ArrayLike<number>, blockSize = BLOCK): RankedSet {
    const set = new RankedSet(blockSize);
    const fill = blockSize === BLOCK ? LOAD_FILL : Math.max(1, (blockSize * 3) >> 2);
    const blocks = Math.ceil(order.length / fill);
    if (blocks === 0) return set;
    if (blocks === 1) set.data = new Uint32Array(2 * Math.max(FIRST_CAPACITY, order.length));
    else set.page(blocks + (blocks >> 4) + 1);
    for (let b = 0, from = 0; from < order.length; b++, from += fill) {
      const count = Math.min(fill, order.length - from);
      const at = set.baseOf(b);
      for (let i = 0; i < count; i++) {
        set.data[at + 2 * i] = scores[order[from + i]];
        set.data[at + 2 * i + 1] = ids[order[from + i]];
      }
      set.counts[b] = count;
      set.order[b] = b;
    }
    if (set.paged) {
      set.freePages.length = 0;
      for (let p = set.data.length / set.stride - 1; p >= blocks; p--) set.freePages.push(p);
    }
    set.blockCount = blocks;
    set.size = order.length;
    for (let i = 0; i < order.length; i++) set.sum += scores[order[i]];
    return set;
  }

  /** How many entries are ahead of (score, id): the 0-based rank of that entry when it is in the set. */
  countAhead(score: number, id: number): number {
    const { lasts, starts } = (this.directory ??= this.directoryOf());
    let lo = 0;
    let hi = this.blockCount;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ahead(lasts[2 * mid], lasts[2 * mid + 1], score, id)) lo = mid + 1;
      else hi = mid;
    }
    if (lo === this.blockCount) return this.size;
    return starts[lo] + this.positionIn(this.order[lo], score, id);
  }

  /** The score of the entry with `ahead` entries before it (0 the top), in O(log blocks); 0 past the end. */
  scoreAt(ahead: number): number {
    if (ahead < 0 || ahead >= this.size) return 0;
    const { starts } = (this.directory ??= this.directoryOf());
    let lo = 0;
    let hi = this.blockCount - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= ahead) lo = mid;
      else hi = mid - 1;
    }
    return this.data[this.baseOf(this.order[lo]) + 2 * (ahead - starts[lo])];
  }

  /** How many entries score at least `score` (an integer above 0). */
  countAtLeast(score: number): number {
    // Ahead of (score - 1, id 0) is every entry scoring above score - 1: no id is below 0.
    return score <= 0 ? this.size : this.countAhead(score - 1, 0);
  }

  /** Each entry's score in board order (highest first), block by block: O(size). */
  forEachScore(visit: (score: number) => void): void {
    for (let b = 0; b < this.blockCount; b++) {
      const page = this.order[b];
      const base = this.baseOf(page);
      const end = base + 2 * this.counts[page];
      for (let at = base; at < end; at += 2) visit(this.data[at]);
    }
  }

  insert(score: number, id: number): void {
    if (this.blockCount === 0) this.firstBlock();
    const b = Math.min(this.blockOf(score, id), this.blockCount - 1);
    let page = this.order[b];
    let at = this.positionIn(page, score, id);
    if (this.counts[page] === this.blockSize) {
      // Split the full block in two halves; the entry goes into the half its position falls in.
      if (!this.paged) this.page(4);
      page = this.order[b];
      const half = this.counts[page] >> 1;
      const right = this.newPage(b + 1);
      const from = page * this.stride;
      this.data.copyWithin(right * this.stride, from + 2 * half, from + 2 * this.counts[page]);
      this.counts[right] = this.counts[page] - half;
      this.counts[page] = half;
      if (at > half) {
        page = right;
        at -= half;
      }
    } else if (!this.paged && this.counts[0] === this.data.length >> 1) {
      const grown = new Uint32Array(Math.min(this.stride, this.data.length * 2));
      grown.set(this.data);
      this.data = grown;
    }
    const base = this.baseOf(page);
    const n = this.counts[page];
    this.data.copyWithin(base + 2 * at + 2, base + 2 * at, base + 2 * n);
    this.data[base + 2 * at] = score;
    this.data[base + 2 * at + 1] = id;
    this.counts[page] = n + 1;
    this.size++;
    this.sum += score;
    this.directory = null;
  }

  /** Removes (score, id); false when it was not in the set. */
  delete(score: number, id: number): boolean {
    const b = this.blockOf(score, id);
    if (b === this.blockCount) return false;
    const page = this.order[b];
    const at = this.positionIn(page, score, id);
    const base = this.baseOf(page);
    const n = this.counts[page];
    if (at === n || this.data[base + 2 * at] !== score || this.data[base + 2 * at + 1] !== id) return false;
    this.data.copyWithin(base + 2 * at, base + 2 * at + 2, base + 2 * n);
    this.counts[page] = n - 1;
    this.size--;
    this.sum -= score;
    if (n === 1) {
      // An emptied block leaves the order; its page is reused by the next split.
      this.order.copyWithin(b, b + 1, this.blockCount);
      this.blockCount--;
      if (this.paged) this.freePages.push(page);
    }
    this.directory = null;
    return true;
  }

  /** Bytes held by the entries' arrays. */
  get bytes(): number {
    return this.data.byteLength;
  }

  /** The set's first block, as a set that never held an entry (or was emptied) starts one. */
  private firstBlock(): void {
    if (this.paged) {
      this.order[0] = this.newPage(0);
    } else {
      if (this.data.length === 0) this.data = new Uint32Array(2 * FIRST_CAPACITY);
      this.order[0] = 0;
      this.blockCount = 1;
    }
    this.counts[this.order[0]] = 0;
  }

  /** Moves the set onto pages (room for `pages` of them), its one block becoming page 0. */
  private page(pages: number): void {
    // Unpaged, the one block starts at 0: its entries (not its capacity, which may exceed a small page) land on page 0.
    this.data = this.data.subarray(0, 2 * this.counts[0]);
    this.grow(1, pages);
    if (!this.blockCount) this.freePages.push(0);
    this.paged = true;
  }

  /** A free page (the arrays grown by a quarter when none is left), entered in the order as block b. */
  private newPage(b: number): number {
    if (!this.freePages.length) {
      const pages = this.data.length / this.stride;
      this.grow(pages, pages + Math.max(4, pages >> 2));
    }
    const page = this.freePages.pop()!;
    this.order.copyWithin(b + 1, b, this.blockCount);
    this.order[b] = page;
    this.counts[page] = 0;
    this.blockCount++;
    return page;
  }

  /** The entries' arrays grown from `held` pages to `pages`, what they hold kept; the new pages are free. */
  private grow(held: number, pages: number): void {
    const data = new Uint32Array(pages * this.stride);
    data.set(this.data);
    this.data = data;
    const counts = new Int32Array(pages);
    counts.set(this.counts);
    this.counts = counts;
    const order = new Int32Array(pages);
    order.set(this.order);
    this.order = order;
    for (let p = pages - 1; p >= held; p--) this.freePages.push(p);
  }

  /** The first block whose last entry is not ahead of (score, id); blockCount when every entry is (for writes). */
  private blockOf(score: number, id: number): number {
    let lo = 0;
    let hi = this.blockCount;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const page = this.order[mid];
      const last = this.baseOf(page) + 2 * this.counts[page] - 2;
      if (ahead(this.data[last], this.data[last + 1], score, id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** How many of the page's entries are ahead of (score, id). */
  private positionIn(page: number, score: number, id: number): number {
    const data = this.data;
    const base = this.baseOf(page);
    let lo = 0;
    let hi = this.counts[page];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const at = base + 2 * mid;
      if (ahead(data[at], data[at + 1], score, id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Where the page's entries start in `data` (the one block of a set that never split starts at 0). */
  private baseOf(page: number): number {
    return this.paged ? page * this.stride : 0;
  }

  private directoryOf(): Directory {
    const count = this.blockCount;
    const directory = { lasts: new Uint32Array(2 * count), starts: new Float64Array(count) };
    let before = 0;
    for (let b = 0; b < count; b++) {
      const page = this.order[b];
      const n = this.counts[page];
      const last = this.baseOf(page) + 2 * n - 2;
      directory.lasts[2 * b] = this.data[last];
      directory.lasts[2 * b + 1] = this.data[last + 1];
      directory.starts[b] = before;
      before += n;
    }
    return directory;
  }
}
