/**
 * The scores of `make eval-vision` (scripts/eval/scoring.mjs) on hand-made answers whose figures are worked
 * out by hand, so that a figure the evaluation prints is the figure its definition gives.
 */
const load = () => import('./scoring.mjs');
let s: Awaited<ReturnType<typeof load>>;
beforeAll(async () => {
  s = await load();
});

const face = (identity: string, cluster: string | null) => ({ identity, cluster });

describe('people: pairwise and B-cubed', () => {
  it('a perfect clustering scores 1 everywhere', () => {
    const faces = [face('a', '1'), face('a', '1'), face('b', '2'), face('b', '2')];
    expect(s.pairwise(faces)).toMatchObject({ precision: 1, recall: 1, pairs: 2, together: 2 });
    expect(s.bcubed(faces)).toEqual({ precision: 1, recall: 1, f1: 1 });
    expect(s.peopleVsIdentities(faces)).toEqual({ found: 2, identities: 2, ratio: 1 });
  });

  it('a person split in two: pairwise recall 1/3 (one of the three a-pairs); B-cubed recall 2/3 for a', () => {
    // a a | a   b  : a-pairs (0,1) (0,2) (1,2), only (0,1) together; nothing wrongly together.
    const faces = [face('a', '1'), face('a', '1'), face('a', '2'), face('b', '3')];
    const pw = s.pairwise(faces);
    expect(pw.precision).toBe(1);
    expect(pw.recall).toBeCloseTo(1 / 3);
    const b3 = s.bcubed(faces);
    expect(b3.precision).toBe(1);
    // Recall per face: 2/3, 2/3, 1/3, 1 → mean 2/3.
    expect(b3.recall).toBeCloseTo(2 / 3);
    expect(b3.f1).toBeCloseTo((2 * (2 / 3)) / (1 + 2 / 3));
    expect(s.peopleVsIdentities(faces)).toEqual({ found: 3, identities: 2, ratio: 1.5 });
  });

  it('two people merged: pairwise precision 1/3; B-cubed precision per face from its cluster', () => {
    // One cluster a a b: pairs (a,a) right, (a,b) twice wrong.
    const faces = [face('a', '1'), face('a', '1'), face('b', '1')];
    const pw = s.pairwise(faces);
    expect(pw.precision).toBeCloseTo(1 / 3);
    expect(pw.recall).toBe(1);
    // Precision per face: 2/3, 2/3, 1/3 → 5/9; recall 1.
    expect(s.bcubed(faces).precision).toBeCloseTo(5 / 9);
    expect(s.bcubed(faces).recall).toBe(1);
  });

  it('a face in no person is alone: it makes no pair, even with another face in none', () => {
    const faces = [face('a', null), face('a', null), face('a', '1')];
    expect(s.pairwise(faces)).toMatchObject({ precision: 1, recall: 0, together: 0 });
    expect(s.bcubed(faces).recall).toBeCloseTo(1 / 3);
    expect(s.peopleVsIdentities(faces).found).toBe(1);
  });

  it("a group photo's members go to the faces whose people hold their other photos", () => {
    const others = new Map([
      ['ann', ['p1', 'p1']],
      ['bob', ['p2']],
    ]);
    // Faces of the photo: bob's person, then ann's, then a stranger.
    expect(s.assignGroup(['ann', 'bob'], ['p2', 'p1', 'p9'], others)).toEqual([1, 0]);
    // Fewer faces than members: one goes without.
    expect(s.assignGroup(['ann', 'bob'], ['p1'], others)).toEqual([0, -1]);
    expect(s.assignGroup(['ann'], [], others)).toEqual([-1]);
  });
});

describe('words', () => {
  it('are compared without case, accents or the punctuation around them', () => {
    expect(s.normaliseWord('Café,')).toBe('cafe');
    expect(s.normaliseWord('«Zorro»')).toBe('zorro');
    expect(s.normaliseWord("l'été")).toBe("l'ete");
    expect(s.normaliseWord('--')).toBe('');
  });

  it('recall counts the labelled words read; precision the words read that the transcription has', () => {
    const r = s.scoreWords(['The', 'QUICK', 'brovvn', 'fox.', '—'], ['quick', 'brown', 'Fox'], 'The quick brown fox');
    expect(r.found).toEqual(['quick', 'Fox']);
    expect(r.missed).toEqual(['brown']);
    // "—" is punctuation only: not a word read.
    expect([r.correct, r.read, r.wrong]).toEqual([3, 4, ['brovvn']]);
  });

  it('without a transcription there is no precision', () => {
    expect(s.scoreWords(['x'], ['x'], null)).toMatchObject({ correct: null, read: null });
  });
});

describe('things', () => {
  it('match COCO names whatever the case or the plural; a list entry is met by any of its labels', () => {
    expect(s.normaliseLabel('Skis')).toBe(s.normaliseLabel('Ski'));
    expect(s.normaliseLabel('Bus')).toBe('bus');
    expect(s.normaliseLabel('Wine Glass')).toBe('wine glass');
    const r = s.scoreThings(['Person', 'Couch', 'Vase', 'Kite'], ['person', ['chair', 'couch'], 'dog'], ['vase']);
    expect(r.entries).toEqual([
      { label: 'person', met: true },
      { label: 'chair/couch', met: true },
      { label: 'dog', met: false },
    ]);
    expect(r.judged).toEqual([
      { label: 'person', verdict: 'right' },
      { label: 'couch', verdict: 'right' },
      { label: 'vase', verdict: 'acceptable' },
      { label: 'kite', verdict: 'wrong' },
    ]);
  });

  it('totals: acceptable labels count for nothing; per label precision and recall', () => {
    const photos = [
      s.scoreThings(['Person', 'Kite'], ['person', 'kite'], []),
      s.scoreThings(['Kite', 'Vase'], ['person'], ['vase']),
    ];
    const { all, labels } = s.thingsTotals(photos);
    expect(all).toMatchObject({ met: 2, expected: 3, right: 2, wrong: 1 });
    expect(all.precision).toBeCloseTo(2 / 3);
    expect(all.recall).toBeCloseTo(2 / 3);
    const kite = labels.find((l) => l.name === 'kite')!;
    expect([kite.precision, kite.recall]).toEqual([0.5, 1]);
    expect(labels.find((l) => l.name === 'person')!.recall).toBe(0.5);
  });
});

describe('places', () => {
  const lisbon = { countryCode: 'PT', country: 'Portugal', city: 'Lisbon', acceptCity: ['Lisboa', 'Belém'] };
  it('country by code or name; city by name, an accepted name or the town, accents aside', () => {
    expect(s.placeMatches({ countryCode: 'PT', city: 'Lisboa', name: 'Lisboa', town: null }, lisbon)).toEqual({
      country: true,
      city: true,
    });
    expect(s.placeMatches({ countryCode: 'pt', city: 'Oeiras', name: 'Oeiras', town: 'Belem' }, lisbon)).toEqual({
      country: true,
      city: true,
    });
    expect(s.placeMatches({ countryCode: 'ES', city: 'Oeiras', name: 'Oeiras', town: null }, lisbon)).toEqual({
      country: false,
      city: false,
    });
  });
  it('a null city asks for the country only; no place at all matches nothing', () => {
    const rural = { countryCode: 'NO', country: 'Norway', city: null, acceptCity: [] };
    expect(s.placeMatches({ countryCode: 'NO', city: 'Anywhere' }, rural)).toEqual({ country: true, city: true });
    expect(s.placeMatches(null, lisbon)).toEqual({ country: false, city: false });
  });
});
