import { cosineDistance } from './embedding';

/** How faces group into people (TROVE_PEOPLE_MATCH_DISTANCE, TROVE_PEOPLE_MIN_FACES). */
export interface GroupingRules {
  /** Two faces are alike when their cosine distance is at most this. */
  maxDistance: number;
  /** Unassigned alike faces (the new one included) it takes to start a person. */
  minFaces: number;
}

export const DEFAULT_GROUPING: GroupingRules = { maxDistance: 0.3, minFaces: 1 };

/** A face as grouping sees it: an id, its embedding and its person (null: none yet). */
export interface GroupedFace {
  id: string;
  embedding: Float32Array;
  personId: string | null;
}

/**
 * The faces of one user in memory, grouped as they arrive:
 * - a new face joins the person of its nearest assigned face when that one is alike;
 * - otherwise, once at least `minFaces` unassigned faces are alike (the new one included), they
 *   start a new person together; else the new face waits unassigned.
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
  add(face: { id: string; embedding: Float32Array }): string | null {
    const added: GroupedFace = { ...face, personId: null };
    let nearest: GroupedFace | undefined;
    let nearestDistance = Infinity;
    const alikeUnassigned: GroupedFace[] = [];
    for (const other of this.faces) {
      const d = cosineDistance(face.embedding, other.embedding);
      if (d > this.rules.maxDistance) continue;
      if (other.personId === null) alikeUnassigned.push(other);
      else if (d < nearestDistance) [nearest, nearestDistance] = [other, d];
    }
    if (nearest) added.personId = nearest.personId;
    else if (alikeUnassigned.length + 1 >= this.rules.minFaces) {
      const personId = this.newPersonId();
      this.newPeople.push(personId);
      added.personId = personId;
      for (const other of alikeUnassigned) other.personId = personId;
    }
    this.faces.push(added);
    return added.personId;
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

/**
 * Groups faces from scratch (in the order given), then lets each new group keep the id of the old
 * person holding most of its faces (largest groups choose first), so names and choices survive a
 * regrouping. Answers each face's person and which old people are left without a group.
 */
export function regroup(
  faces: GroupedFace[],
  rules: GroupingRules,
  newPersonId: () => string,
): { personOf: Map<string, string | null>; reused: string[]; created: string[]; dropped: string[] } {
  let temp = 0;
  const grouping = new FaceGrouping([], rules, () => `group-${temp++}`);
  for (const f of faces) grouping.add(f);
  const members = new Map<string, GroupedFace[]>();
  for (const f of grouping.all()) if (f.personId) members.set(f.personId, [...(members.get(f.personId) ?? []), f]);
  const oldPersonOf = new Map(faces.map((f) => [f.id, f.personId]));
  const groups = [...members.entries()].sort((a, b) => b[1].length - a[1].length);
  const taken = new Set<string>();
  const idOfGroup = new Map<string, string>();
  const created: string[] = [];
  for (const [group, groupFaces] of groups) {
    const votes = new Map<string, number>();
    for (const f of groupFaces) {
      const old = oldPersonOf.get(f.id);
      if (old && !taken.has(old)) votes.set(old, (votes.get(old) ?? 0) + 1);
    }
    const [best] = [...votes.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    const id = best ? best[0] : newPersonId();
    if (best) taken.add(id);
    else created.push(id);
    idOfGroup.set(group, id);
  }
  const personOf = new Map(grouping.all().map((f) => [f.id, f.personId ? idOfGroup.get(f.personId)! : null]));
  const oldPeople = new Set(faces.flatMap((f) => (f.personId ? [f.personId] : [])));
  return { personOf, reused: [...taken], created, dropped: [...oldPeople].filter((p) => !taken.has(p)) };
}
