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
    for (let i = this.firstAtLeast(queryWord); i < this.sorted.length && matchOf(queryWord, this.wordOf[this.sorted[i]!]!) !== 'none'; i++) found.push(this.sorted[i]!);
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
    for (let k = 0; k < merged.length; k++) merged[k] = j >= added.length || (i < this.sorted.length && byWord(this.sorted[i]!, added[j]!) < 0) ? this.sorted[i++]! : added[j++]!;
    this.sorted = merged;
    this.added = [];
  }
}

interface Entry {
  id: string;
  time: number;
  visible: boolean;
  revision: number;
  /** The item's word ids, field after field. */
  words: Int32Array;
  /** Where each field's words end in `words`. */
  ends: Uint16Array;
}

/**
 * One user's searchable items in memory, in a compact form: word numbers instead of words, and
 * no prefixes (a query word's prefix matches are looked up once in the vocabulary, not stored per
 * item). A query scans every item, which is a few array reads per word: tens of milliseconds for
 * 100 000 items, where reading the same items out of a document store costs seconds.
 */
export class WordIndex {
  private readonly vocabulary = new Vocabulary();
  private readonly entries = new Map<string, Entry>();

  get size(): number {
    return this.entries.size;
  }

  /** Puts the item in, unless the index already holds the same or a later revision of it. */
  put(item: IndexedItem): void {
    const held = this.entries.get(item._id);
    if (held && held.revision >= item.revision) return;
    const ends = new Uint16Array(item.fieldWords.length);
    const ids: number[] = [];
    item.fieldWords.forEach((fieldWords, f) => {
      for (const word of fieldWords) ids.push(this.vocabulary.id(word));
      ends[f] = ids.length;
    });
    this.entries.set(item._id, { id: item._id, time: item.creationTime.getTime(), visible: item.visible, revision: item.revision, words: Int32Array.from(ids), ends });
  }

  remove(id: string): void {
    this.entries.delete(id);
  }

  /**
   * The visible items having every one of `query`'s words (as a whole word, or as the beginning of
   * one when the query word is long enough), each with its counts for ranking. Up to 16 query words.
   */
  visibleMatches(query: readonly string[]): Match[] {
    if (query.length === 0 || query.length > MAX_INDEXED_QUERY_WORDS) throw new Error(`a query of 1 to ${MAX_INDEXED_QUERY_WORDS} words, not ${query.length}`);
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
    const found: Match[] = [];
    for (const entry of this.entries.values()) {
      if (!entry.visible) continue;
      const { words, ends } = entry;
      let seen = 0;
      let whole = 0;
      let fields = 0;
      let start = 0;
      for (let f = 0; f < ends.length; f++) {
        let inField = 0;
        for (let k = start; k < ends[f]!; k++) {
          inField |= matched[words[k]!]!;
          whole |= equal[words[k]!]!;
        }
        if (inField !== 0) fields += 1;
        seen |= inField;
        start = ends[f]!;
      }
      if (seen === all) found.push({ id: entry.id, time: entry.time, fields, exact: bitCount(whole) });
    }
    return found;
  }
}

function bitCount(mask: number): number {
  let n = 0;
  for (let m = mask; m !== 0; m &= m - 1) n += 1;
  return n;
}
