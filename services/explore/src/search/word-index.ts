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

type Growable = Int32Array | Float64Array | Uint8Array;

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
 * item). Items sit in numbered slots of flat arrays, their words in one shared pool, so that a
 * query is one pass over a few typed arrays: milliseconds for 100 000 items, where reading the
 * same items out of a document store costs seconds.
 */
export class WordIndex {
  private readonly vocabulary = new Vocabulary();
  private readonly slotOf = new Map<string, number>();
  private ids: string[] = [];
  private revisions: number[] = [];
  private times = new Float64Array(1024);
  private visible = new Uint8Array(1024);
  /** Slot s's words are pool[starts[s]] up to pool[ends[s × fields + fields − 1]], field f's ending at ends[s × fields + f]. */
  private starts = new Int32Array(1024);
  private ends = new Int32Array(1024);
  private pool = new Int32Array(16 * 1024);
  private poolUsed = 0;
  /** Words in the pool that no slot points to any more (replaced or removed items): reclaimed when they are half of it. */
  private poolGarbage = 0;

  /** `fields`: how many fields every item has (the length of its `fieldWords`). */
  constructor(private readonly fields: number) {
    if (!Number.isInteger(fields) || fields < 1) throw new Error(`items of 1 field or more, not ${fields}`);
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
      this.ends = atLeast(this.ends, (slot + 1) * this.fields);
    }
    this.revisions[slot] = item.revision;
    this.times[slot] = item.creationTime.getTime();
    this.visible[slot] = item.visible ? 1 : 0;
    const count = item.fieldWords.reduce((n, words) => n + words.length, 0);
    this.pool = atLeast(this.pool, this.poolUsed + count);
    this.starts[slot] = this.poolUsed;
    item.fieldWords.forEach((words, f) => {
      for (const word of words) this.pool[this.poolUsed++] = this.vocabulary.id(word);
      this.ends[slot * this.fields + f] = this.poolUsed;
    });
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
      this.ends.copyWithin(slot * this.fields, last * this.fields, (last + 1) * this.fields);
    }
    this.slotOf.delete(id);
    this.ids.pop();
    this.revisions.pop();
  }

  private wordCount(slot: number): number {
    return this.ends[slot * this.fields + this.fields - 1]! - this.starts[slot]!;
  }

  /** Copies every slot's words into a new pool, leaving out those no slot points to. */
  private compactPool(): void {
    const pool = new Int32Array(Math.max(16 * 1024, (this.poolUsed - this.poolGarbage) * 2));
    let used = 0;
    for (let slot = 0; slot < this.ids.length; slot++) {
      const start = this.starts[slot]!;
      const shift = used - start;
      const end = this.ends[slot * this.fields + this.fields - 1]!;
      pool.set(this.pool.subarray(start, end), used);
      used += end - start;
      this.starts[slot] = start + shift;
      for (let f = 0; f < this.fields; f++) this.ends[slot * this.fields + f]! += shift;
    }
    this.pool = pool;
    this.poolUsed = used;
    this.poolGarbage = 0;
  }

  /**
   * The visible items having every one of `query`'s words (as a whole word, or as the beginning of
   * one when the query word is long enough), each with its counts for ranking. Up to 16 query words.
   */
  visibleMatches(query: readonly string[]): Match[] {
    if (query.length === 0 || query.length > MAX_INDEXED_QUERY_WORDS)
      throw new Error(`a query of 1 to ${MAX_INDEXED_QUERY_WORDS} words, not ${query.length}`);
    // Per vocabulary word: which query words it matches (bit i: query word i), and which it equals.
    const matched = new Uint16Array(this.vocabulary.size);
    const equal = new Uint16Array(this.vocabulary.size);
    for (const [i, queryWord] of query.entries()) {
      const matching = this.vocabulary.matching(queryWord);
      if (matching.length === 0) return []; // a word no item has: nothing has them all
      for (const id of matching) matched[id]! |= 1 << i;
      const id = this.vocabulary.exactId(queryWord);
      if (id !== undefined) equal[id]! |= 1 << i;
    }
    const all = (1 << query.length) - 1;
    const { pool, starts, ends, visible, fields } = this;
    const found: Match[] = [];
    for (let slot = 0; slot < this.ids.length; slot++) {
      if (visible[slot] === 0) continue;
      let seen = 0;
      let whole = 0;
      let fieldsMatched = 0;
      let k = starts[slot]!;
      for (let f = slot * fields, last = f + fields; f < last; f++) {
        let inField = 0;
        for (const end = ends[f]!; k < end; k++) {
          inField |= matched[pool[k]!]!;
          whole |= equal[pool[k]!]!;
        }
        if (inField !== 0) fieldsMatched += 1;
        seen |= inField;
      }
      if (seen === all)
        found.push({ id: this.ids[slot]!, time: this.times[slot]!, fields: fieldsMatched, exact: bitCount(whole) });
    }
    return found;
  }
}

function bitCount(mask: number): number {
  let n = 0;
  for (let m = mask; m !== 0; m &= m - 1) n += 1;
  return n;
}
