import { matchOf } from './text';
import { byRank, WordIndex } from './word-index';
import type { IndexedItem, Match } from './word-index';

/** What the index must answer, worked out the plain way: every item, every field, every word. */
function expected(items: Map<string, IndexedItem>, query: string[]): Match[] {
  const found: Match[] = [];
  for (const item of items.values()) {
    if (!item.visible) continue;
    const matches = (q: string, field: readonly string[]) => field.some((word) => matchOf(q, word) !== 'none');
    if (!query.every((q) => item.fieldWords.some((field) => matches(q, field)))) continue;
    const fields = item.fieldWords.filter((field) => query.some((q) => matches(q, field))).length;
    const exact = query.filter((q) => item.fieldWords.some((field) => field.includes(q))).length;
    found.push({ id: item._id, time: item.creationTime.getTime(), fields, exact });
  }
  return found;
}

const byId = (a: Match, b: Match) => (a.id < b.id ? -1 : 1);

// Every query both ways: newest first with its early end (the default), and through the postings from the start.
describe.each([
  ['newest first, then the postings', undefined],
  ['through the postings', 0],
])('WordIndex (%s)', (_way, earlyChecks) => {
  it('answers what a plain pass over every word answers, through puts, replacements and removals', () => {
    let seed = 3;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;
    const vocabulary = [
      'mumbai',
      'mumbles',
      'mum',
      'paris',
      'par',
      'parade',
      'cat',
      'catalogue',
      'ca',
      'dog',
      '2022',
      '20',
      '2',
      'iphone',
      'ip',
      'a',
    ];
    const index = new WordIndex(3, earlyChecks);
    const held = new Map<string, IndexedItem>();
    let revision = 0;
    for (let step = 0; step < 3000; step++) {
      const id = `item-${Math.floor(random() * 60)}`;
      if (random() < 0.15) {
        index.remove(id);
        held.delete(id);
      } else {
        const field = () => Array.from({ length: Math.floor(random() * 4) }, () => pick(vocabulary));
        const item: IndexedItem = {
          _id: id,
          creationTime: new Date(Math.floor(random() * 1e12)),
          visible: random() < 0.8,
          revision: ++revision,
          fieldWords: [field(), field(), field()],
        };
        index.put(item);
        held.set(id, item);
        // An older revision arriving late changes nothing.
        index.put({ ...item, revision: item.revision - 1, visible: !item.visible, fieldWords: [[], [], []] });
      }
      if (step % 700 === 0) index.trim(); // as after a read: puts go on after it
      if (step % 50 === 0) {
        const query = Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
          pick([...vocabulary, 'mumb', 'zzz', 'cata']),
        );
        const unique = [...new Set(query)];
        expect([unique, index.visibleMatches(unique).sort(byId)]).toEqual([unique, expected(held, unique).sort(byId)]);
        // The best few only, in rank order.
        expect([unique, index.visibleMatches(unique, 3)]).toEqual([
          unique,
          expected(held, unique).sort(byRank).slice(0, 3),
        ]);
      }
    }
    expect(index.size).toBe(held.size);
  });

  it('finds words added after a lookup by their beginnings too', () => {
    const index = new WordIndex(1, earlyChecks);
    index.put({ _id: 'a', creationTime: new Date(0), visible: true, revision: 1, fieldWords: [['mumbai']] });
    expect(index.visibleMatches(['mum']).map((m) => m.id)).toEqual(['a']);
    index.put({ _id: 'b', creationTime: new Date(0), visible: true, revision: 1, fieldWords: [['mumble', 'mu']] });
    expect(
      index
        .visibleMatches(['mum'])
        .map((m) => m.id)
        .sort(),
    ).toEqual(['a', 'b']);
    expect(index.visibleMatches(['mu']).map((m) => m.id)).toEqual(['b']);
  });

  it('answers the best few the same through rebuilds of its postings, many changes and equal times', () => {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;
    const vocabulary = ['person', 'persona', 'dog', 'paris', 'par', '2022', 'iphone', 'apple'];
    const index = new WordIndex(2, earlyChecks);
    const held = new Map<string, IndexedItem>();
    let revision = 0;
    for (let round = 0; round < 6; round++) {
      // Enough changes between queries to rebuild the postings now and then (past 1024 changed slots).
      for (let step = 0; step < 900; step++) {
        const id = `item-${Math.floor(random() * 2500)}`;
        if (random() < 0.2) {
          index.remove(id);
          held.delete(id);
          continue;
        }
        const field = () => Array.from({ length: Math.floor(random() * 3) }, () => pick(vocabulary));
        const item: IndexedItem = {
          _id: id,
          creationTime: new Date(Math.floor(random() * 40) * 300), // many taken at the same time, or in the same second
          visible: random() < 0.9,
          revision: ++revision,
          fieldWords: [field(), field()],
        };
        index.put(item);
        held.set(id, item);
      }
      for (const query of [['person'], ['pers'], ['apple'], ['dog', 'paris'], ['par'], ['iphone', '2022']]) {
        for (const count of [1, 5, 40]) {
          expect([query, count, index.visibleMatches(query, count)]).toEqual([
            query,
            count,
            expected(held, query).sort(byRank).slice(0, count),
          ]);
        }
      }
    }
  });
});
