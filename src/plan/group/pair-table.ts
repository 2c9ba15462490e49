type Counts = Uint8Array | Uint16Array | Uint32Array;

/** An array of `length` counts of at most `max` each, in the narrowest type that holds them. */
function counts(max: number, length: number): Counts {
  if (max < 0x100) return new Uint8Array(length);
  return max < 0x10000 ? new Uint16Array(length) : new Uint32Array(length);
}

/**
 * Where the clustering keeps what it knows of each pair of clusters that may ever merge. Only clusters in one block
 * (one intent) can merge, so each block keeps the pairs of its own clusters, each pair once (i < j): for Microsoft
 * Graph’s 1,510 starting groups that is under a fifth of the entries of a full square table. Counts are stored as narrow as the
 * largest value they can take allows.
 */
export class PairTable {
  /** How close the two are (higher merges first); `-Infinity` for a pair that may never merge, NaN until computed. */
  readonly scores: Float64Array;
  /** Name key of the words the two would share once merged (NaN until asked). */
  readonly sharedKeys: Float64Array;
  /** Number of the words the two would share once merged. */
  readonly sharedCounts: Counts;
  /** Number of distinct argument names the two hold together (set with the score). */
  readonly argumentUnions: Counts;
  /**
   * What the merge rules ask of a pair besides its sizes, which only its two clusters decide: the branches the two
   * would span once merged, plus one (0: not asked yet; capped at 255, far above any rule's limit), and whether they
   * are one resource family (0: not asked yet, 1: they are, 2: not). Every rule scans every pair again; these keep
   * the scans from recomputing them.
   */
  readonly branchCounts: Uint8Array;
  readonly families: Uint8Array;
  /** Slot → block (-1: in none, merges with no other cluster). */
  private readonly blocks: Int32Array;
  /** Slot → position among its block's slots. */
  private readonly positions: Int32Array;
  /** Slot at position p of its block → where its pairs with later positions start, less that of position p + 1. */
  private readonly rowBases: Int32Array;

  /**
   * @param blocks per slot, its block (-1 for none); blocks are numbered from 0
   * @param maxSharedWords most words a cluster holds (merging only shrinks them)
   * @param maxArguments most distinct argument names two clusters can hold together
   */
  constructor(blocks: readonly number[], maxSharedWords: number, maxArguments: number) {
    this.blocks = Int32Array.from(blocks);
    this.positions = new Int32Array(blocks.length);
    this.rowBases = new Int32Array(blocks.length);
    const sizes: number[] = [];
    blocks.forEach((block, slot) => {
      if (block < 0) return;
      this.positions[slot] = sizes[block] ?? 0;
      sizes[block] = (sizes[block] ?? 0) + 1;
    });
    const starts: number[] = [];
    let total = 0;
    for (let block = 0; block < sizes.length; block++) {
      starts[block] = total;
      const size = sizes[block] ?? 0;
      total += (size * (size - 1)) / 2;
    }
    blocks.forEach((block, slot) => {
      if (block < 0) return;
      const size = sizes[block] as number;
      const p = this.positions[slot] as number;
      // Pairs (p, q) with q > p of a block of `size` start at p·size − p(p+1)/2 and take q − p − 1 from there.
      this.rowBases[slot] = (starts[block] as number) + p * size - (p * (p + 1)) / 2 - p - 1;
    });
    this.scores = new Float64Array(total).fill(-Infinity);
    this.sharedKeys = new Float64Array(total);
    this.sharedCounts = counts(maxSharedWords, total);
    this.argumentUnions = counts(maxArguments, total);
    this.branchCounts = new Uint8Array(total);
    this.families = new Uint8Array(total);
  }

  /** The block of a slot (-1: in none). */
  blockOf(slot: number): number {
    return this.blocks[slot] as number;
  }

  /** Where the pair of two distinct slots is kept, or -1 when they are in different blocks (they never merge). */
  index(i: number, j: number): number {
    const block = this.blocks[i] as number;
    if (block < 0 || block !== this.blocks[j]) return -1;
    return i < j
      ? (this.rowBases[i] as number) + (this.positions[j] as number)
      : (this.rowBases[j] as number) + (this.positions[i] as number);
  }
}
