/**
 * How text becomes searchable words, the same way for what is indexed and what is asked:
 * lower case, diacritics folded ("Île" → "ile", "Straße" → "strasse"), split on everything that is
 * not a letter or a digit ("IMG_0543.HEIC" → img, 0543, heic).
 */

/** Letters that Unicode decomposition does not fold into a base letter plus marks. */
const FOLDS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };
const FOLDABLE = new RegExp(`[${Object.keys(FOLDS).join('')}]`, 'g');

/** Indexed words are cut to this length: a longer word is still found by its beginning (and its prefixes stay few). */
export const MAX_WORD_LENGTH = 32;
/** A query word this long or longer also matches the words it begins ("mumb" finds "mumbai"). */
export const MIN_PREFIX_LENGTH = 3;

export function normalise(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(FOLDABLE, (c) => FOLDS[c] ?? c);
}

/** The distinct words of `text`, in order of first appearance. */
export function words(text: string): string[] {
  const found = normalise(text).match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(found.map((w) => w.slice(0, MAX_WORD_LENGTH)))];
}

/** What a document is found by: each of its words, and each word's beginnings of MIN_PREFIX_LENGTH letters or more. */
export function terms(allWords: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const word of allWords) {
    out.add(word);
    for (let n = MIN_PREFIX_LENGTH; n < word.length; n++) out.add(word.slice(0, n));
  }
  return [...out];
}

/** How one query word meets a document word: not at all, as its beginning, or as the whole word. */
export function matchOf(queryWord: string, word: string): 'none' | 'prefix' | 'exact' {
  if (word === queryWord) return 'exact';
  return queryWord.length >= MIN_PREFIX_LENGTH && word.startsWith(queryWord) ? 'prefix' : 'none';
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/**
 * The words of when an item was taken: year, English month name and day of the month, as the
 * camera's local calendar says (the date part of the ISO string, its offset kept: a photo taken on
 * 3 April in Mumbai is of 3 April wherever the server is).
 */
export function dateWords(creationTime: string): string[] {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(creationTime);
  if (!m) return [];
  const month = MONTHS[Number(m[2]) - 1];
  return month ? [m[1]!, month, String(Number(m[3]))] : [m[1]!];
}
