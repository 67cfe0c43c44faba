/** Search suggestions: names of people, places and things that start with the words typed. */

export interface Suggestion {
  kind: 'person' | 'place' | 'thing';
  id: string;
  /** What goes in the search box. */
  name: string;
  /** What the list shows ("Place", "Thing", "Person"). */
  label: string;
}

/** The most suggestions offered. */
export const MAX_SUGGESTIONS = 8;

const LABEL = { person: 'Person', place: 'Place', thing: 'Thing' } as const;

function words(s: string): string[] {
  return s
    .toLocaleLowerCase('en')
    .split(/[\s,.-]+/)
    .filter(Boolean);
}

/** Whether `name` starts with the text typed, or each typed word starts one of the name's words. */
export function startsWithWords(name: string, typed: string): boolean {
  const n = name.toLocaleLowerCase('en');
  const t = typed.trim().toLocaleLowerCase('en');
  if (!t) return false;
  if (n.startsWith(t)) return true;
  const nameWords = words(name);
  return words(typed).every((w) => nameWords.some((nw) => nw.startsWith(w)));
}

/** The entries whose names match, people first, at most MAX_SUGGESTIONS, each name once. */
export function suggest(
  typed: string,
  entries: { kind: Suggestion['kind']; id: string; name: string | null }[],
): Suggestion[] {
  const seen = new Set<string>();
  const out: Suggestion[] = [];
  for (const e of entries) {
    if (!e.name || !startsWithWords(e.name, typed)) continue;
    const key = e.name.toLocaleLowerCase('en');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ kind: e.kind, id: e.id, name: e.name, label: LABEL[e.kind] });
    if (out.length === MAX_SUGGESTIONS) break;
  }
  return out;
}
