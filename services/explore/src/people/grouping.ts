import { cosineDistance } from './embedding';

/** How faces group into people (TROVE_PEOPLE_MATCH_DISTANCE, TROVE_PEOPLE_MIN_FACES, TROVE_PEOPLE_MIN_QUALITY). */
export interface GroupingRules {
  /** Two faces are alike when their cosine distance is at most this. */
  maxDistance: number;
  /** Alike faces (the face itself included) a face needs to found a person: the core-point rule. */
  minFaces: number;
  /** Faces of a lower quality (0..1; absent: usable) never found a person; they may join one. */
  minQuality: number;
}

/**
 * Defaults, to be re-measured with each embedding model (the worker's choice): 0.30 was measured
 * with FaceRes on the seed photos.
 */
export const DEFAULT_GROUPING: GroupingRules = { maxDistance: 0.3, minFaces: 1, minQuality: 0.5 };

/** A face as grouping sees it: an id, its embedding and its person (null: none yet), with the user's corrections. */
export interface GroupedFace {
  id: string;
  embedding: Float32Array;
  personId: string | null;
  /** 0..1; absent: usable. */
  quality?: number;
  /** The user chose its person: grouping never moves it. */
  pinned?: boolean;
  /** People the user said it is not: grouping never gives it to them. */
  rejected?: readonly string[];
}

/** A new face for `FaceGrouping.add`. */
export type NewFace = Omit<GroupedFace, 'personId' | 'pinned'>;

const usable = (f: { quality?: number }, rules: GroupingRules) =>
  f.quality === undefined || f.quality >= rules.minQuality;
const rejects = (f: GroupedFace, personId: string) => f.rejected?.includes(personId) ?? false;

/**
 * The faces of one user in memory, grouped as they arrive (incremental assignment):
 * - a new face joins the person of its nearest assigned face when that one is alike (people it
 *   was told it is not are skipped);
 * - otherwise, when it may found a person (quality at least the minimum) and at least `minFaces`
 *   faces alike to it wait unassigned (itself included), they start a new person together; else
 *   it waits unassigned.
 * The person of a face already assigned never changes here (merging and regrouping do that).
 * Every face is compared with every other: fine for a family library; the repository and the
 * service keep it behind `add`, so an index can replace it.
 */
export class FaceGrouping {
  private readonly faces: GroupedFace[];
  private readonly before = new Map<string, string | null>();
  /** People started by `add`, in order. */
  readonly newPeople: string[] = [];

  constructor(
    faces: GroupedFace[],
    private readonly rules: GroupingRules,
    private readonly newPersonId: () => string,
  ) {
    this.faces = faces.map((f) => ({ ...f }));
    for (const f of faces) this.before.set(f.id, f.personId);
  }

  /** Adds a face (its person is decided here) and answers its person, null while it waits. */
  add(face: NewFace): string | null {
    const added: GroupedFace = { ...face, personId: null };
    let nearest: GroupedFace | undefined;
    let nearestDistance = Infinity;
    const alikeUnassigned: GroupedFace[] = [];
    for (const other of this.faces) {
      const d = cosineDistance(face.embedding, other.embedding);
      if (d > this.rules.maxDistance) continue;
      if (other.personId === null) alikeUnassigned.push(other);
      else if (d < nearestDistance && !rejects(added, other.personId)) [nearest, nearestDistance] = [other, d];
    }
    if (nearest) added.personId = nearest.personId;
    else if (usable(face, this.rules) && alikeUnassigned.length + 1 >= this.rules.minFaces) {
      const personId = this.newPersonId();
      this.newPeople.push(personId);
      added.personId = personId;
      for (const other of alikeUnassigned) other.personId = personId;
    }
    this.faces.push(added);
    return added.personId;
  }

  /** Adds a face whose person is already decided (a face the user placed, carried over from an earlier result). */
  place(face: GroupedFace): void {
    this.faces.push({ ...face });
  }

  /** The person of every face now. */
  personOf(id: string): string | null {
    return this.faces.find((f) => f.id === id)?.personId ?? null;
  }

  /** Faces given to the constructor whose person changed (unassigned ones a new person took). */
  changed(): Array<{ id: string; personId: string | null }> {
    return this.faces
      .filter((f) => this.before.has(f.id) && this.before.get(f.id) !== f.personId)
      .map((f) => ({ id: f.id, personId: f.personId }));
  }

  /** Every face added or given, with its person. */
  all(): ReadonlyArray<Readonly<GroupedFace>> {
    return this.faces;
  }
}

/** A group being built by `regroup`: its faces and what they say about the people they may become. */
interface Group {
  members: number[];
  /** Old people of its faces, with how many faces each. */
  votes: Map<string, number>;
  /** People any of its faces is not. */
  rejected: Set<string>;
}

export interface RegroupResult {
  /** Every face's person after regrouping (null: unassigned). */
  personOf: Map<string, string | null>;
  /** Old people some group kept. */
  reused: string[];
  /** New people (their ids from `newPersonId`). */
  created: string[];
  /** Old people left without a face: neither named nor pinned to (the service removes them). */
  dropped: string[];
}

/**
 * Groups all of a user's faces from scratch, as DBSCAN does, with the user's corrections as constraints:
 * 1. a face is a core face when its quality may found a person and at least `minFaces` faces
 *    (itself included) are alike to it;
 * 2. alike core faces are joined into groups, nearest pairs first (people split by the
 *    incremental assignment merge here), except where the two groups would stand for two
 *    different named (`kept`) people, or for a person a face of the other group is not;
 * 3. every other face joins the group of its nearest alike core face, else keeps its old person
 *    when that one is kept (named or hidden), else waits unassigned;
 * 4. each group becomes a person: the kept old person with most of its faces (several groups may
 *    share one: a name is never lost), else the old person with most of its faces not taken by
 *    a larger group, else a new person;
 * 5. a face the user placed (pinned) keeps its person and stays out of the groups; a face never
 *    gets a person it is not (it waits unassigned).
 * Faces are taken in the order given (a stable one keeps the result stable).
 */
export function regroup(
  faces: GroupedFace[],
  rules: GroupingRules,
  newPersonId: () => string,
  kept: ReadonlySet<string> = new Set(),
): RegroupResult {
  const steps = regroupSteps(faces, rules, newPersonId, kept);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `regroup` a step at a time: it pauses after each face's comparisons (the O(n²) part: seconds for
 * a few thousand faces, minutes for tens of thousands), so that a caller can let other work run in
 * between (`cooperatively`). The result is the same.
 */
export function* regroupSteps(
  faces: GroupedFace[],
  rules: GroupingRules,
  newPersonId: () => string,
  kept: ReadonlySet<string> = new Set(),
): Generator<void, RegroupResult, void> {
  const n = faces.length;
  // Alike pairs, once: the only O(n²) step.
  const neighbours: number[][] = faces.map(() => []);
  const edges: Array<[number, number, number]> = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const d = cosineDistance(faces[i]!.embedding, faces[j]!.embedding);
      if (d > rules.maxDistance) continue;
      neighbours[i]!.push(j);
      neighbours[j]!.push(i);
      edges.push([d, i, j]);
    }
    yield;
  }
  // Pinned faces stay out of the groups: the user placed that one face, not its look-alikes.
  const core = faces.map((f, i) => !f.pinned && usable(f, rules) && neighbours[i]!.length + 1 >= rules.minFaces);

  // Groups of core faces: union-find, nearest pairs first, refusing unions the constraints forbid.
  const parent = faces.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const groups = new Map<number, Group>();
  faces.forEach((f, i) => {
    if (!core[i]) return;
    groups.set(i, {
      members: [i],
      votes: new Map(f.personId ? [[f.personId, 1]] : []),
      rejected: new Set(f.rejected ?? []),
    });
  });
  /** The person a group stands for as far as the constraints go: its kept old person with most faces. */
  const claim = (g: Group): string | undefined => {
    let best: [string, number] | undefined;
    for (const [p, c] of g.votes) if (kept.has(p) && (!best || c > best[1])) best = [p, c];
    return best?.[0];
  };
  const compatible = (a: Group, b: Group) => {
    const [ca, cb] = [claim(a), claim(b)];
    if (ca && cb && ca !== cb) return false;
    return !(ca && b.rejected.has(ca)) && !(cb && a.rejected.has(cb));
  };
  edges.sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
  for (const [, i, j] of edges) {
    if (!core[i] || !core[j]) continue;
    let [a, b] = [find(i), find(j)];
    if (a === b) continue;
    let [ga, gb] = [groups.get(a)!, groups.get(b)!];
    if (!compatible(ga, gb)) continue;
    if (ga.members.length < gb.members.length) [a, b, ga, gb] = [b, a, gb, ga];
    parent[b] = a;
    ga.members.push(...gb.members);
    for (const [p, c] of gb.votes) ga.votes.set(p, (ga.votes.get(p) ?? 0) + c);
    for (const p of gb.rejected) ga.rejected.add(p);
    groups.delete(b);
  }

  // Each group's person: largest groups choose first.
  const oldPeople = new Set(faces.flatMap((f) => (f.personId ? [f.personId] : [])));
  const personOfGroup = new Map<number, string>();
  const taken = new Set<string>();
  const created: string[] = [];
  const ordered = [...groups.entries()].sort((x, y) => y[1].members.length - x[1].members.length || x[0] - y[0]);
  for (const [root, g] of ordered) {
    const byVotes = [...g.votes.entries()].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]));
    const person = claim(g) ?? byVotes.find(([p]) => !kept.has(p) && !taken.has(p))?.[0] ?? newPersonId();
    if (!oldPeople.has(person)) created.push(person);
    taken.add(person);
    personOfGroup.set(root, person);
  }

  const personOf = new Map<string, string | null>();
  faces.forEach((f, i) => {
    let person: string | null;
    if (f.pinned && f.personId) person = f.personId;
    else if (core[i]) person = personOfGroup.get(find(i)) ?? null;
    else {
      // A border face: the group of its nearest alike core face it may belong to.
      let best: [string, number] | undefined;
      for (const j of neighbours[i]!) {
        if (!core[j]) continue;
        const p = personOfGroup.get(find(j));
        const d = cosineDistance(f.embedding, faces[j]!.embedding);
        if (p && !rejects(f, p) && (!best || d < best[1])) best = [p, d];
      }
      person = best?.[0] ?? (f.personId && kept.has(f.personId) ? f.personId : null);
    }
    personOf.set(f.id, person && !rejects(f, person) ? person : null);
  });

  const final = new Set([...personOf.values()].filter((p): p is string => p !== null));
  return {
    personOf,
    reused: [...oldPeople].filter((p) => final.has(p)),
    created: created.filter((p) => final.has(p)),
    dropped: [...oldPeople].filter((p) => !final.has(p) && !kept.has(p)),
  };
}

/**
 * Runs `steps` to their end, letting the event loop run (requests, other users' grouping) whenever a
 * stretch of steps took `sliceMs`: a long regroup no longer holds the whole process.
 */
export async function cooperatively<T>(steps: Generator<void, T, void>, sliceMs = 20): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}
