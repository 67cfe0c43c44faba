import { decodeEmbedding, encodeEmbedding } from '@trove/proto-events';
import { cosineDistance } from './embedding';
import { DEFAULT_GROUPING, FaceGrouping, regroup } from './grouping';
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
      { maxDistance: 0.01, minFaces: 1 },
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
});
