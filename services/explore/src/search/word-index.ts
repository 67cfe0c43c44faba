import { matchOf } from './text';

/** The words of an item, field by field, in the order ranking counts fields (see repository.ts's FIELDS). */
export interface IndexedItem {
  _id: string;
  creationTime: Date;
  visible: boolean;
  revision: number;
  fieldWords: readonly (readonly string[])[];
}

/** An item that has every word of a query, and what ranking needs to know of it. */
export interface Match {
  id: string;
  /** When it was taken (ms since the epoch). */
  time: number;
  /** Fields with a word matched by a query word. */
  fields: number;
  /** Query words found whole. */
  exact: number;
}

/** Ranking: more fields matched first, then more query words found whole, then the newest, then by id (a stable order for paging). */
export const byRank = (a: Match, b: Match): number =>
  b.fields - a.fields || b.exact - a.exact || b.time - a.time || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * How many slots the newest-first search checks against their words before it leaves them to the postings: when
 * its early end is near (the best all score the most possible) it comes within a few pages of slots.
 */
const EARLY_CHECKS = 2_000;

/** The best matches offered, in rank order: only those that make it into the best `count` become objects. */
class Best {
  private readonly found: Match[] = [];

  constructor(private readonly count: number) {}

  offer(fields: number, exact: number, time: number, slot: number, ids: readonly string[]): void {
    const { found, count } = this;
    if (count <= 0) return;
    if (count <= 1000 && found.length >= count) {
      const worst = found[found.length - 1]!;
      const better =
        fields - worst.fields || exact - worst.exact || time - worst.time || (ids[slot]! < worst.id ? 1 : -1);
      if (better <= 0) return;
    }
    const match: Match = { id: ids[slot]!, time, fields, exact };
    if (count > 1000) {
      found.push(match); // many wanted: sorted once at the end
      return;
    }
    let lo = 0;
    let hi = found.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (byRank(found[mid]!, match) <= 0) lo = mid + 1;
      else hi = mid;
    }
    found.splice(lo, 0, match);
    if (found.length > count) found.pop();
  }

  /** The last of the best, once there are `count` of them (kept in order only for a few). */
  lastOfFull(): Match | undefined {
    return this.count <= 1000 && this.found.length >= this.count ? this.found[this.found.length - 1] : undefined;
  }

  result(): Match[] {
    if (this.count > 1000) this.found.sort(byRank).splice(this.count);
    return this.found;
  }
}

function bitCount(mask: number): number {
  let n = 0;
  for (let m = mask; m !== 0; m &= m - 1) n += 1;
  return n;
}

/** A query has at most this many words: one bit each in a 16-bit mask. */
export const MAX_INDEXED_QUERY_WORDS = 16;

/**
 * Every distinct word once, with a number: items hold numbers, and a query word's matches (the
 * word itself, and the words it begins) are found by binary search in the words kept sorted.
 * Words are never forgotten: one no item has any more only costs its place.
 */
class Vocabulary {
  private readonly idOf = new Map<string, number>();
  private readonly wordOf: string[] = [];
  /** Ids sorted by their word, up to the words added since the last lookup. */
  private sorted: number[] = [];
  private added: number[] = [];

  get size(): number {
    return this.wordOf.length;
  }

  id(word: string): number {
    let id = this.idOf.get(word);
    if (id === undefined) {
      id = this.wordOf.length;
      this.wordOf.push(word);
      this.idOf.set(word, id);
      this.added.push(id);
    }
    return id;
  }

  /** Ids of the words `queryWord` matches: itself, and those it begins when it is long enough. */
  matching(queryWord: string): number[] {
    this.merge();
    // The words a query word matches come first among those not before it, one after another.
    const found: number[] = [];
    for (
      let i = this.firstAtLeast(queryWord);
      i < this.sorted.length && matchOf(queryWord, this.wordOf[this.sorted[i]!]!) !== 'none';
      i++
    )
      found.push(this.sorted[i]!);
    return found;
  }

  exactId(word: string): number | undefined {
    return this.idOf.get(word);
  }

  private firstAtLeast(word: string): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.wordOf[this.sorted[mid]!]! < word) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Brings the words added since the last lookup into the sorted ids: one pass, not a sort of them all. */
  private merge(): void {
    if (this.added.length === 0) return;
    const byWord = (a: number, b: number) => (this.wordOf[a]! < this.wordOf[b]! ? -1 : 1);
    const added = this.added.sort(byWord);
    const merged: number[] = new Array<number>(this.sorted.length + added.length);
    let i = 0;
    let j = 0;
    for (let k = 0; k < merged.length; k++)
      merged[k] =
        j >= added.length || (i < this.sorted.length && byWord(this.sorted[i]!, added[j]!) < 0)
          ? this.sorted[i++]!
          : added[j++]!;
    this.sorted = merged;
    this.added = [];
  }
}

type Growable = Int32Array | Uint32Array | Float64Array | Uint8Array;

/** `array`, or a copy twice as long (at least `length`) when it is shorter than `length`. */
function atLeast<T extends Growable>(array: T, length: number): T {
  if (length <= array.length) return array;
  const bigger = new (array.constructor as new (n: number) => T)(Math.max(length, array.length * 2));
  bigger.set(array);
  return bigger;
}

/**
 * One user's searchable items in memory, in a compact form: word numbers instead of words, and
 * no prefixes (a query word's prefix matches are looked up once in the vocabulary, not stored per
 * item). Items sit in numbered slots of flat arrays, their words in one shared pool. A query goes
 * through the slots having its rarest word only: each word's slots (its postings) are listed in one
 * flat array, rebuilt from the pool when many slots changed since; the slots changed since the last
 * build are gone through too. A slot gone through is checked against its words, so a stale listing
 * costs time, never a wrong answer. Milliseconds for a million items, where reading the same items
 * out of a document store costs minutes.
 */
export class WordIndex {
  private readonly vocabulary = new Vocabulary();
  private readonly slotOf = new Map<string, number>();
  private ids: string[] = [];
  private revisions: number[] = [];
  private times = new Float64Array(1024);
  private visible = new Uint8Array(1024);
  /** Slot s's words are pool[starts[s]] up to pool[ends[s]]; the field of the word at pool[k] is fieldOf[k]. */
  private starts = new Int32Array(1024);
  private ends = new Int32Array(1024);
  private pool = new Int32Array(16 * 1024);
  private fieldOf = new Uint8Array(16 * 1024);
  private poolUsed = 0;
  /** Words in the pool that no slot points to any more (replaced or removed items): reclaimed when they are half of it. */
  private poolGarbage = 0;
  /** Word w's slots, as of the last build: postingSlots[postingStarts[w]] up to postingSlots[postingStarts[w + 1]]. */
  private postingStarts = new Int32Array(1);
  private postingSlots = new Int32Array(0);
  /** The field of each listed word (a slot having a word in two fields is listed twice). */
  private postingFields = new Uint8Array(0);
  /** How far a word's later slots may be newer than an earlier one (their order is by the second: see newestFirst). */
  private postingSlackMs = 0;
  /** Slots put (or moved) since the last build, whose words the postings may not list; null: too many, build again. */
  private changed: Set<number> | null = null;
  /** Per slot, the query that last went through it (so that a slot listed twice is checked once). */
  private seenBy = new Int32Array(1024);
  private queries = 0;
  /** Per vocabulary word, during a query: the query words it matches, and those it equals (see visibleMatches). */
  private hits = new Uint32Array(1024);
  /** Per vocabulary word, the fields it was ever put in (bit f: field f): what a query can match at best. */
  private wordFields = new Uint32Array(1024);
  /** Bit w: word w has hits. A million words' bits fit a CPU cache, their hits do not: most words of an item have none. */
  private hitBits = new Uint32Array(32);
  /** Per slot, during a query gone through by its postings (see `rankByPostings`): query words matched, and fields. */
  private slotHits = new Uint32Array(1024);
  private slotFields = new Uint32Array(1024);

  /**
   * `fields`: how many fields every item has (the length of its `fieldWords`); `earlyChecks`: how many slots a query
   * checks newest first before it goes through the postings instead (see EARLY_CHECKS; tests make it 0).
   */
  constructor(
    private readonly fields: number,
    private readonly earlyChecks = EARLY_CHECKS,
  ) {
    if (!Number.isInteger(fields) || fields < 1 || fields > 31)
      throw new Error(`items of 1 to 31 fields, not ${fields}`);
  }

  get size(): number {
    return this.ids.length;
  }

  /** Puts the item in, unless the index already holds the same or a later revision of it. */
  put(item: IndexedItem): void {
    if (item.fieldWords.length !== this.fields)
      throw new Error(`an item of ${this.fields} fields, not ${item.fieldWords.length}`);
    if (this.poolGarbage > this.poolUsed / 2) this.compactPool();
    let slot = this.slotOf.get(item._id);
    if (slot !== undefined) {
      if (this.revisions[slot]! >= item.revision) return;
      this.poolGarbage += this.wordCount(slot);
    } else {
      slot = this.ids.length;
      this.slotOf.set(item._id, slot);
      this.ids.push(item._id);
      this.times = atLeast(this.times, slot + 1);
      this.visible = atLeast(this.visible, slot + 1);
      this.starts = atLeast(this.starts, slot + 1);
      this.ends = atLeast(this.ends, slot + 1);
    }
    this.touched(slot);
    this.revisions[slot] = item.revision;
    this.times[slot] = item.creationTime.getTime();
    this.visible[slot] = item.visible ? 1 : 0;
    const count = item.fieldWords.reduce((n, words) => n + words.length, 0);
    this.pool = atLeast(this.pool, this.poolUsed + count);
    this.fieldOf = atLeast(this.fieldOf, this.pool.length);
    this.starts[slot] = this.poolUsed;
    item.fieldWords.forEach((words, f) => {
      for (const word of words) {
        const id = this.vocabulary.id(word);
        this.wordFields = atLeast(this.wordFields, id + 1);
        this.wordFields[id]! |= 1 << f;
        this.fieldOf[this.poolUsed] = f;
        this.pool[this.poolUsed++] = id;
      }
    });
    this.ends[slot] = this.poolUsed;
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.poolGarbage += this.wordCount(slot);
    // The last slot moves into the freed one: the slots stay one dense run.
    const last = this.ids.length - 1;
    if (slot !== last) {
      const moved = this.ids[last]!;
      this.ids[slot] = moved;
      this.slotOf.set(moved, slot);
      this.revisions[slot] = this.revisions[last]!;
      this.times[slot] = this.times[last]!;
      this.visible[slot] = this.visible[last]!;
      this.starts[slot] = this.starts[last]!;
      this.ends[slot] = this.ends[last]!;
      this.touched(slot);
    }
    this.slotOf.delete(id);
    this.ids.pop();
    this.revisions.pop();
  }

  /** The slot's words may be other than the postings list. */
  private touched(slot: number): void {
    if (!this.changed) return;
    this.changed.add(slot);
    if (this.changed.size > Math.max(1024, this.ids.length / 8)) this.changed = null;
  }

  /** Lists every word's slots anew, newest taken first, from the pool (a counting sort: two passes over it). */
  private buildPostings(): void {
    const words = this.vocabulary.size;
    const starts = new Int32Array(words + 1);
    const { pool, ids } = this;
    for (let slot = 0; slot < ids.length; slot++) {
      for (let k = this.starts[slot]!, end = this.ends[slot]!; k < end; k++) starts[pool[k]! + 1]! += 1;
    }
    for (let w = 0; w < words; w++) starts[w + 1]! += starts[w]!;
    const next = starts.slice(0, words);
    const slots = new Int32Array(starts[words]!);
    const fields = new Uint8Array(starts[words]!);
    const { fieldOf } = this;
    for (const slot of this.newestFirst()) {
      for (let k = this.starts[slot]!, end = this.ends[slot]!; k < end; k++) {
        const at = next[pool[k]!]!++;
        slots[at] = slot;
        fields[at] = fieldOf[k]!;
      }
    }
    this.postingStarts = starts;
    this.postingSlots = slots;
    this.postingFields = fields;
    this.changed = new Set();
  }

  /**
   * The slots, newest taken first: by the second (`postingSlackMs`), sorted natively as numbers
   * (seconds and slot packed in one), several times faster than a sort calling back per comparison;
   * to the millisecond with a comparison when the seconds span too much for that.
   */
  private newestFirst(): Int32Array {
    const size = this.ids.length;
    let newest = Number.NEGATIVE_INFINITY;
    let oldest = Number.POSITIVE_INFINITY;
    for (let slot = 0; slot < size; slot++) {
      const second = Math.floor((this.times[slot] || 0) / 1000);
      if (second > newest) newest = second;
      if (second < oldest) oldest = second;
    }
    const slotSpan = 2 ** (32 - Math.clz32(size));
    if (size > 0 && (newest - oldest + 1) * slotSpan < Number.MAX_SAFE_INTEGER) {
      const keys = new Float64Array(size);
      for (let slot = 0; slot < size; slot++)
        keys[slot] = (newest - Math.floor((this.times[slot] || 0) / 1000)) * slotSpan + slot;
      keys.sort();
      this.postingSlackMs = 1000;
      return Int32Array.from(keys, (key) => key % slotSpan);
    }
    this.postingSlackMs = 0;
    return Int32Array.from(this.ids.keys()).sort((a, b) => this.times[b]! - this.times[a]!);
  }

  /** How many slots the postings list for these words (words added since the last build: none). */
  private postingCount(wordIds: readonly number[]): number {
    let n = 0;
    for (const w of wordIds)
      if (w + 1 < this.postingStarts.length) n += this.postingStarts[w + 1]! - this.postingStarts[w]!;
    return n;
  }

  private wordCount(slot: number): number {
    return this.ends[slot]! - this.starts[slot]!;
  }

  /** Copies every slot's words into a new pool of `room` more than they need, leaving out those no slot points to. */
  private compactPool(room = this.poolUsed - this.poolGarbage): void {
    const length = Math.max(16 * 1024, this.poolUsed - this.poolGarbage + room);
    const pool = new Int32Array(length);
    const fieldOf = new Uint8Array(length);
    let used = 0;
    for (let slot = 0; slot < this.ids.length; slot++) {
      const start = this.starts[slot]!;
      const end = this.ends[slot]!;
      pool.set(this.pool.subarray(start, end), used);
      fieldOf.set(this.fieldOf.subarray(start, end), used);
      this.starts[slot] = used;
      used += end - start;
      this.ends[slot] = used;
    }
    this.pool = pool;
    this.fieldOf = fieldOf;
    this.poolUsed = used;
    this.poolGarbage = 0;
  }

  /**
   * Gives back what the arrays hold beyond their items and a little room (they grow by doubling: a
   * million items may leave almost as much unused): for after a user's items have been read.
   */
  trim(): void {
    const room = (n: number) => n + (n >> 4) + 1024;
    const fit = <T extends Growable>(array: T, used: number): T =>
      array.length > room(used) ? (array.slice(0, room(used)) as T) : array;
    const size = this.ids.length;
    this.times = fit(this.times, size);
    this.visible = fit(this.visible, size);
    this.starts = fit(this.starts, size);
    this.ends = fit(this.ends, size);
    this.seenBy = fit(this.seenBy, size);
    if (this.pool.length > room(this.poolUsed - this.poolGarbage))
      this.compactPool(room(this.poolUsed - this.poolGarbage) - (this.poolUsed - this.poolGarbage));
  }

  /**
   * The visible items having every one of `query`'s words (as a whole word, or as the beginning of
   * one when the query word is long enough), each with its counts for ranking: the best `count` of
   * them in rank order (byRank), or all of them when `count` is left out. Up to 16 query words.
   */
  visibleMatches(query: readonly string[], count = Number.POSITIVE_INFINITY): Match[] {
    if (query.length === 0 || query.length > MAX_INDEXED_QUERY_WORDS)
      throw new Error(`a query of 1 to ${MAX_INDEXED_QUERY_WORDS} words, not ${query.length}`);
    if (!this.changed) this.buildPostings();
    // Per vocabulary word: which query words it matches (bit i: query word i) and, 16 bits up, which it equals.
    this.hits = atLeast(this.hits, this.vocabulary.size);
    this.hitBits = atLeast(this.hitBits, (this.vocabulary.size >>> 5) + 1);
    const { hits, hitBits } = this;
    const set: number[] = [];
    const matchingOf: number[][] = [];
    const exactOf: Array<number | undefined> = [];
    let rarest: number[] | undefined;
    let rarestIndex = 0;
    // The most an item can score: the fields any matching word was ever put in, the query words that are words.
    let fieldsAtBest = 0;
    let exactAtBest = 0;
    for (const [i, queryWord] of query.entries()) {
      const matching = this.vocabulary.matching(queryWord);
      for (const id of matching) {
        hits[id]! |= 1 << i;
        hitBits[id >>> 5]! |= 1 << (id & 31);
        fieldsAtBest |= this.wordFields[id]!;
      }
      const id = this.vocabulary.exactId(queryWord);
      if (id !== undefined) {
        hits[id]! |= 1 << (i + 16);
        exactAtBest += 1;
      }
      set.push(...matching);
      matchingOf.push(matching);
      exactOf.push(id);
      if (!rarest || this.postingCount(matching) < this.postingCount(rarest)) {
        rarest = matching;
        rarestIndex = i;
      }
    }
    try {
      // A word no item has: nothing has them all.
      if (rarest!.length === 0) return [];
      const atBest = { fields: bitCount(fieldsAtBest), exact: exactAtBest };
      // Newest first, the best found often score the most any item can: the rest is older, the search ends early.
      const early = this.rank(query.length, rarest!, count, atBest, this.earlyChecks);
      if (early) return early;
      // It did not (scores vary: a word in another field of a few items): every listed slot, by its postings.
      return this.rankByPostings(matchingOf, exactOf, rarestIndex, count);
    } finally {
      for (const id of set) {
        hits[id] = 0;
        hitBits[id >>> 5] = 0;
      }
    }
  }

  /**
   * The best `count` visible slots having every query word, going through those changed since the
   * postings were built, then those listed for each word of `rarest`, newest first: once the best
   * found all score `atBest` and a word's next slot is older than the last of them, none of its
   * slots after it can beat them.
   */
  private rank(
    queryWords: number,
    rarest: readonly number[],
    count: number,
    atBest: { fields: number; exact: number },
    budget = Number.POSITIVE_INFINITY,
  ): Match[] | undefined {
    const all = (1 << queryWords) - 1;
    const { postingStarts, postingSlots, times, ids } = this;
    const size = ids.length;
    const top = new Best(count);
    this.seenBy = atLeast(this.seenBy, size);
    const mark = this.nextMark();
    const seenBy = this.seenBy;
    const check = (slot: number) => {
      if (slot >= size || seenBy[slot] === mark) return;
      seenBy[slot] = mark;
      this.offerChecked(slot, all, top);
    };
    for (const slot of this.changed!) check(slot);
    let checks = 0;
    for (const w of rarest) {
      if (w + 1 >= postingStarts.length) continue;
      for (let p = postingStarts[w]!, end = postingStarts[w + 1]!; p < end; p++) {
        const slot = postingSlots[p]!;
        // A slot changed since the build was checked above (its time may not be the listed one).
        if (slot >= size || seenBy[slot] === mark) continue;
        // The rest of this word's slots are older still: none of them can make it.
        const last = top.lastOfFull();
        if (
          last &&
          last.fields === atBest.fields &&
          last.exact === atBest.exact &&
          times[slot]! + this.postingSlackMs < last.time
        )
          break;
        // Past its budget: the caller goes through the postings instead.
        if (++checks > budget) return undefined;
        check(slot);
      }
    }
    return top.result();
  }

  /** A number no slot's `seenBy` holds yet: the mark of one pass over the slots. */
  private nextMark(): number {
    if (this.queries === 0x7fffffff) {
      this.queries = 0;
      this.seenBy.fill(0);
    }
    return ++this.queries;
  }

  /**
   * The best `count` visible slots having every query word, from the postings alone: the slots listed for the words
   * of the rarest query word (`rarestIndex`) are the candidates; the other query words' postings add what each
   * candidate matched (query words, whole words, fields: a posting carries its field). One pass over the postings of
   * the query's words, a few array reads each, instead of each candidate's words; slots changed since the postings
   * were built are checked against their words (`rank` went through them: its way, without a budget, for them alone).
   */
  private rankByPostings(
    matchingOf: readonly (readonly number[])[],
    exactOf: ReadonlyArray<number | undefined>,
    rarestIndex: number,
    count: number,
  ): Match[] {
    const { postingStarts, postingSlots, postingFields, visible, times, ids } = this;
    const size = ids.length;
    this.seenBy = atLeast(this.seenBy, size);
    this.slotHits = atLeast(this.slotHits, size);
    this.slotFields = atLeast(this.slotFields, size);
    const { seenBy, slotHits, slotFields } = this;
    const all = (1 << matchingOf.length) - 1;
    const top = new Best(count);
    // Both marks taken first: a wrap of the counter (which clears every mark) cannot come between them.
    const changed = this.nextMark();
    const candidate = this.nextMark();
    // The slots changed since the build: checked against their words, as `rank` does.
    for (const slot of this.changed!) {
      if (slot >= size || seenBy[slot] === changed) continue;
      seenBy[slot] = changed;
      this.offerChecked(slot, all, top);
    }
    const candidates: number[] = [];
    const order = [rarestIndex, ...matchingOf.keys()].filter((i, k) => k === 0 || i !== rarestIndex);
    for (const i of order) {
      const bit = 1 << i;
      const first = i === rarestIndex;
      for (const w of matchingOf[i]!) {
        if (w + 1 >= postingStarts.length) continue;
        const hit = w === exactOf[i] ? bit | (bit << 16) : bit;
        for (let p = postingStarts[w]!, end = postingStarts[w + 1]!; p < end; p++) {
          const slot = postingSlots[p]!;
          if (slot >= size) continue;
          const seen = seenBy[slot]!;
          if (seen !== candidate) {
            // Only the rarest word's slots are candidates; a changed slot was checked above.
            if (!first || seen === changed || visible[slot] === 0) continue;
            seenBy[slot] = candidate;
            slotHits[slot] = 0;
            slotFields[slot] = 0;
            candidates.push(slot);
          }
          slotHits[slot]! |= hit;
          slotFields[slot]! |= 1 << postingFields[p]!;
        }
      }
    }
    for (const slot of candidates) {
      const hits = slotHits[slot]!;
      if ((hits & 0xffff) === all)
        top.offer(bitCount(slotFields[slot]!), bitCount(hits >>> 16), times[slot]!, slot, ids);
    }
    return top.result();
  }

  /** Offers `slot` to `top` when its words have every query word (the query's `hits` set). */
  private offerChecked(slot: number, all: number, top: Best): void {
    const { pool, fieldOf, starts, ends, visible, hits, hitBits, times, ids } = this;
    if (visible[slot] === 0) return;
    let seen = 0;
    let fieldMask = 0;
    for (let k = starts[slot]!, end = ends[slot]!; k < end; k++) {
      const word = pool[k]!;
      if ((hitBits[word >>> 5]! & (1 << (word & 31))) === 0) continue;
      const hit = hits[word]!;
      seen |= hit;
      if ((hit & 0xffff) !== 0) fieldMask |= 1 << fieldOf[k]!;
    }
    if ((seen & 0xffff) === all) top.offer(bitCount(fieldMask), bitCount(seen >>> 16), times[slot]!, slot, ids);
  }
}
