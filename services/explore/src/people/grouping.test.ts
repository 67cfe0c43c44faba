import { decodeEmbedding, encodeEmbedding } from '@trove/proto-events';
import { cosineDistance } from './embedding';
import { cooperatively, DEFAULT_GROUPING, FaceGrouping, regroup, regroupSteps } from './grouping';
import { faceOf, randomPerson, seeded, shuffled } from './synthetic.fake';

/** 6 people with 5 faces each, plus 4 strangers seen once; face ids say whose they are (`p2-f3`, `stranger-1`). */
function library(seed: number) {
  const random = seeded(seed);
  const faces: Array<{ id: string; embedding: Float32Array }> = [];
  for (let p = 0; p < 6; p++) {
    const person = randomPerson(random);
    for (let f = 0; f < 5; f++) faces.push({ id: `p${p}-f${f}`, embedding: faceOf(person, random) });
  }
  for (let s = 0; s < 4; s++) faces.push({ id: `stranger-${s}`, embedding: randomPerson(random) });
  return { faces, random };
}

/** The partition as sorted lists of face ids (person ids differ from run to run; groups must not). */
function partition(personOf: (id: string) => string | null, ids: string[]): string[][] {
  const groups = new Map<string, string[]>();
  for (const id of ids) {
    const p = personOf(id) ?? `alone:${id}`;
    groups.set(p, [...(groups.get(p) ?? []), id]);
  }
  return [...groups.values()].map((g) => g.sort()).sort((a, b) => a[0]!.localeCompare(b[0]!));
}
const truth = (ids: string[]) => partition((id) => id.split('-')[0]!.replace(/^stranger$/, id), ids);

describe('face grouping on synthetic embeddings', () => {
  let n = 0;
  const newId = () => `person-${n++}`;

  it('the synthetic noise keeps faces of one person within the threshold and different people far apart', () => {
    const { faces } = library(1);
    const d = (a: string, b: string) =>
      cosineDistance(faces.find((f) => f.id === a)!.embedding, faces.find((f) => f.id === b)!.embedding);
    expect(d('p0-f0', 'p0-f4')).toBeLessThan(0.2);
    expect(d('p0-f0', 'p1-f0')).toBeGreaterThan(0.8);
    expect(decodeEmbedding(encodeEmbedding(faces[0]!.embedding))).toEqual(faces[0]!.embedding);
  });

  it('each person becomes one group, each stranger one of their own (minFaces 1)', () => {
    const { faces } = library(2);
    const grouping = new FaceGrouping([], DEFAULT_GROUPING, newId);
    for (const f of faces) grouping.add(f);
    const ids = faces.map((f) => f.id);
    expect(partition((id) => grouping.personOf(id), ids)).toEqual(truth(ids));
    expect(grouping.newPeople).toHaveLength(10);
  });

  it('any order of arrival gives the same partition', () => {
    const { faces, random } = library(3);
    const ids = faces.map((f) => f.id);
    for (let run = 0; run < 5; run++) {
      const grouping = new FaceGrouping([], DEFAULT_GROUPING, newId);
      for (const f of shuffled(faces, random)) grouping.add(f);
      expect(partition((id) => grouping.personOf(id), ids)).toEqual(truth(ids));
    }
  });

  it('with minFaces 3 a face waits until three alike faces exist, then they start a person together; strangers wait', () => {
    const { faces } = library(4);
    const grouping = new FaceGrouping([], { ...DEFAULT_GROUPING, minFaces: 3 }, newId);
    expect(grouping.add(faces[0]!)).toBeNull();
    expect(grouping.add(faces[1]!)).toBeNull();
    const person = grouping.add(faces[2]!);
    expect(person).not.toBeNull();
    expect([0, 1, 2].map((i) => grouping.personOf(faces[i]!.id))).toEqual([person, person, person]);
    expect(grouping.add(faces[3]!)).toBe(person);
    for (const stranger of faces.filter((f) => f.id.startsWith('stranger'))) expect(grouping.add(stranger)).toBeNull();
  });

  it('a new face joins the person of its nearest assigned face, whatever that person is (hidden people too); known faces keep theirs', () => {
    const { faces } = library(5);
    const known = faces
      .filter((f) => f.id.endsWith('-f0'))
      .map((f) => ({ ...f, personId: `known-${f.id.slice(0, 2)}` }));
    const grouping = new FaceGrouping(known, DEFAULT_GROUPING, newId);
    expect(grouping.add(faces.find((f) => f.id === 'p3-f2')!)).toBe('known-p3');
    expect(grouping.changed()).toEqual([]);
  });

  it('a face alike to none starts a person; nothing farther than the threshold joins', () => {
    const random = seeded(6);
    const person = randomPerson(random);
    const grouping = new FaceGrouping(
      [{ id: 'a', embedding: faceOf(person, random), personId: 'A' }],
      { ...DEFAULT_GROUPING, maxDistance: 0.01 },
      () => 'B',
    );
    expect(grouping.add({ id: 'b', embedding: faceOf(person, random) })).toBe('B');
  });

  it("regrouping from scratch finds the same partition and keeps the old person with most of each group's faces", () => {
    const { faces, random } = library(7);
    // Old grouping: p0 split over two people (the larger part keeps its id), p1 and p2 wrongly merged.
    const old = (id: string) =>
      id.startsWith('p0') ? (id === 'p0-f4' ? 'old-split' : 'old-p0') : /^p[12]/.test(id) ? 'old-merged' : null;
    const given = shuffled(faces, random).map((f) => ({ ...f, personId: old(f.id) }));
    const { personOf, created, dropped } = regroup(given, DEFAULT_GROUPING, newId);
    const ids = faces.map((f) => f.id);
    expect(partition((id) => personOf.get(id) ?? null, ids)).toEqual(truth(ids));
    expect(personOf.get('p0-f4')).toBe('old-p0');
    expect(['old-merged'].includes(personOf.get('p1-f0')!) !== ['old-merged'].includes(personOf.get('p2-f0')!)).toBe(
      true,
    );
    expect(dropped).toEqual(['old-split']);
    expect(created).toHaveLength(10 - 2);
  });

  /** Old persons by a rule on face ids, as `regroup` gets them. */
  const withOld = (faces: Array<{ id: string; embedding: Float32Array }>, old: (id: string) => string | null) =>
    faces.map((f) => ({ ...f, personId: old(f.id) }));
  const groupOf = (personOf: Map<string, string | null>, prefix: string) =>
    [...personOf.entries()].filter(([id]) => id.startsWith(prefix)).map(([, p]) => p);

  it('core-point rule: with minFaces 3 a person seen twice or once founds nobody, one seen 3+ times does', () => {
    const random = seeded(8);
    const [often, twice] = [randomPerson(random), randomPerson(random)];
    const faces = [
      ...[0, 1, 2, 3].map((i) => ({ id: `often-${i}`, embedding: faceOf(often, random) })),
      ...[0, 1].map((i) => ({ id: `twice-${i}`, embedding: faceOf(twice, random) })),
      { id: 'once-0', embedding: randomPerson(random) },
    ];
    const { personOf, created } = regroup(
      withOld(faces, () => null),
      { ...DEFAULT_GROUPING, minFaces: 3 },
      newId,
    );
    expect(created).toHaveLength(1);
    expect(new Set(groupOf(personOf, 'often')).size).toBe(1);
    expect(groupOf(personOf, 'often')[0]).toBe(created[0]);
    expect([...groupOf(personOf, 'twice'), ...groupOf(personOf, 'once')]).toEqual([null, null, null]);
  });

  it('faces below the minimum quality never found a person but join one; absent quality is usable', () => {
    const random = seeded(9);
    const [good, blurry] = [randomPerson(random), randomPerson(random)];
    const faces = [
      { id: 'good-0', embedding: faceOf(good, random) },
      { id: 'good-1', embedding: faceOf(good, random), quality: 0.1 },
      { id: 'good-2', embedding: faceOf(good, random), quality: 0.2 },
      { id: 'blurry-0', embedding: faceOf(blurry, random), quality: 0.3 },
      { id: 'blurry-1', embedding: faceOf(blurry, random), quality: 0.49 },
    ];
    const { personOf } = regroup(
      withOld(faces, () => null),
      DEFAULT_GROUPING,
      newId,
    );
    expect(new Set(groupOf(personOf, 'good')).size).toBe(1);
    expect(groupOf(personOf, 'good')[0]).not.toBeNull();
    expect(groupOf(personOf, 'blurry')).toEqual([null, null]);
    // Incrementally too: a blurry face waits, a usable one founds a person and takes it along.
    const grouping = new FaceGrouping([], DEFAULT_GROUPING, newId);
    expect(grouping.add(faces[1]!)).toBeNull();
    const person = grouping.add(faces[0]!);
    expect(person).not.toBeNull();
    expect(grouping.personOf('good-1')).toBe(person);
    expect(grouping.add(faces[2]!)).toBe(person);
  });

  it('regrouping merges a person split in two, keeping the larger id; a name on either side survives', () => {
    const { faces } = library(10);
    const split = (id: string) => (id.startsWith('p0') ? (/-f[01]$/.test(id) ? 'small' : 'large') : null);
    const plain = regroup(withOld(faces, split), DEFAULT_GROUPING, newId);
    expect(new Set(groupOf(plain.personOf, 'p0'))).toEqual(new Set(['large']));
    expect(plain.dropped).toEqual(['small']);
    const named = regroup(withOld(faces, split), DEFAULT_GROUPING, newId, new Set(['small']));
    expect(new Set(groupOf(named.personOf, 'p0'))).toEqual(new Set(['small']));
    expect(named.dropped).toEqual(['large']);
  });

  it('two named people are never merged, even when their faces are alike; a named person keeps a face too weak to found', () => {
    const { faces } = library(11);
    const old = (id: string) => (id.startsWith('p0') ? (/-f[01]$/.test(id) ? 'Ann' : 'Anna') : null);
    const { personOf, dropped } = regroup(withOld(faces, old), DEFAULT_GROUPING, newId, new Set(['Ann', 'Anna']));
    expect(groupOf(personOf, 'p0')).toEqual(faces.filter((f) => f.id.startsWith('p0')).map((f) => old(f.id)));
    expect(dropped).toEqual([]);
    // A named person seen once, with minFaces 3: their face is no core face, yet keeps the name.
    const once = regroup(
      withOld(faces, (id) => (id === 'stranger-0' ? 'Zoe' : null)),
      { ...DEFAULT_GROUPING, minFaces: 3 },
      newId,
      new Set(['Zoe']),
    );
    expect(once.personOf.get('stranger-0')).toBe('Zoe');
  });

  it("regrouping keeps the user's corrections: a pinned face stays, a rejected person is never given back", () => {
    const { faces } = library(12);
    const given = faces.map((f) => ({
      ...f,
      personId: f.id.startsWith('p0') || f.id === 'p1-f0' ? 'P0' : f.id.startsWith('p1') ? 'P1' : null,
      // The user moved p1-f0 to P0 (pinned), and said p0-f3 is not P0.
      pinned: f.id === 'p1-f0',
      rejected: f.id === 'p0-f3' ? ['P0'] : [],
    }));
    given.find((f) => f.id === 'p0-f3')!.personId = null;
    const { personOf } = regroup(given, DEFAULT_GROUPING, newId);
    expect(personOf.get('p1-f0')).toBe('P0');
    expect(['p1-f1', 'p1-f2', 'p1-f3', 'p1-f4'].map((id) => personOf.get(id))).toEqual(['P1', 'P1', 'P1', 'P1']);
    expect(['p0-f0', 'p0-f1', 'p0-f2', 'p0-f4'].map((id) => personOf.get(id))).toEqual(['P0', 'P0', 'P0', 'P0']);
    expect(personOf.get('p0-f3')).not.toBe('P0');
    // With P0 named, the face the user took from P0 founds a person of its own rather than be merged back.
    const named = regroup(given, DEFAULT_GROUPING, newId, new Set(['P0']));
    expect(named.personOf.get('p0-f3')).not.toBe('P0');
    expect(named.personOf.get('p0-f3')).not.toBeNull();
    // Incrementally: a face that is not P0 skips P0's faces.
    const grouping = new FaceGrouping(
      given.filter((f) => f.personId === 'P0'),
      DEFAULT_GROUPING,
      () => 'fresh',
    );
    expect(grouping.add({ ...faces.find((f) => f.id === 'p0-f3')!, rejected: ['P0'] })).toBe('fresh');
    const plain = new FaceGrouping(
      given.filter((f) => f.personId === 'P0'),
      DEFAULT_GROUPING,
      () => 'fresh',
    );
    expect(plain.add(faces.find((f) => f.id === 'p0-f3')!)).toBe('P0');
  });
});

describe('regroup step by step', () => {
  it('gives the same people as regroup, and lets other work run between its steps', async () => {
    const { faces } = library(5);
    let ids = 0;
    const whole = regroup(
      faces.map((f) => ({ ...f, personId: null })),
      DEFAULT_GROUPING,
      () => `p-${ids++}`,
    );
    const order: string[] = [];
    let steps = 0;
    setImmediate(() => order.push(`other work after ${steps} steps`));
    ids = 0;
    const faceSteps = regroupSteps(
      faces.map((f) => ({ ...f, personId: null })),
      DEFAULT_GROUPING,
      () => `p-${ids++}`,
    );
    const counted = (function* () {
      for (;;) {
        const step = faceSteps.next();
        if (step.done) return step.value;
        steps++;
        yield;
      }
    })();
    // No time at a stretch allowed: the loop runs after the first step.
    const stepped = await cooperatively(counted, 0);
    expect(stepped).toEqual(whole);
    expect(steps).toBe(faces.length);
    expect(order).toEqual(['other work after 1 steps']);
  });
});
