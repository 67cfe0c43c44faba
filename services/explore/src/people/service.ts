import { createHash, randomUUID } from 'node:crypto';
import { decodeEmbedding } from '@trove/proto-events';
import type { ContentLocationV1, FaceV1, MediaItemProcessedV1, PersonV1 } from '@trove/proto-events';
import { badRequest, notFound } from '@trove/kit';
import type { MediaStates } from '../ports/media';
import { cooperatively, FaceGrouping, regroupSteps } from './grouping';
import type { GroupedFace, GroupingRules } from './grouping';
import { toFaceV1, toPersonV1 } from './document';
import type { FaceBox, FaceDoc, PersonDoc } from './document';
import { cosineDistance } from './embedding';
import type { PeopleRepository } from './repository';

export const personNotFound = () => notFound('person not found');
const faceNotFound = () => notFound('face not found');
const mediaItemNotFound = () => notFound('mediaitem not found');

/** A user's faces read at a time by grouping and regrouping (a page is ~6 MB with 1024-value embeddings). */
export const FACE_PAGE_SIZE = 1000;

/** A face's id: the same for the same item and position, so a result delivered again replaces its faces in place. */
export function faceId(mediaItemId: string, index: number): string {
  const h = createHash('sha256').update(`${mediaItemId}/${index}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

const groupedFace = (f: FaceDoc): GroupedFace => ({
  id: f._id,
  embedding: decodeEmbedding(f.embedding),
  personId: f.personId,
  ...(f.quality !== undefined ? { quality: f.quality } : {}),
  ...(f.pinned ? { pinned: true } : {}),
  ...(f.rejected?.length ? { rejected: f.rejected } : {}),
});

/** Ids in the order the store sorts them (`_id: 1`). */
const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** How much two boxes overlap: intersection over union, 0..1. */
function overlap(a: FaceBox, b: FaceBox): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / (a.width * a.height + b.width * b.height - inter);
}

/** What the user may change of a person (fields left out stay). */
export interface PersonUpdate {
  name?: string;
  hidden?: boolean;
  /** A photo of that person; null: the newest again. */
  coverMediaItemId?: string | null;
}

export interface PeopleServiceOptions {
  /** A user's faces read at a time by grouping and regrouping (default FACE_PAGE_SIZE). */
  facePageSize?: number;
  /** A regroup lets other work run after this long at a stretch (default: `cooperatively`'s). */
  sliceMs?: number;
}

/** Told which of a user's items may show other names now (search indexes the names of the people in each item). */
export type NamesChangedListener = (userId: string, mediaItemIds: string[]) => Promise<void>;

/**
 * People of each user's library. Rules:
 * - the faces of a processed item replace its earlier ones (a result without `faces` keeps them);
 *   each new face joins people as `FaceGrouping` decides (the item's earlier faces count as known,
 *   so the same result again lands in the same people); faces of hidden people match them too;
 * - a person's count and cover follow its items' visibility like places and things (explore's
 *   record of each item); with no visible item it still answers by id (count 0, no cover) but
 *   leaves the lists; people are only removed by merging, regrouping and the user's deletion;
 * - grouping, merging and regrouping of one user run one at a time in this process;
 * - everything is scoped to the user: another user's id is not found.
 */
export class PeopleService {
  private readonly userLocks = new Map<string, Promise<unknown>>();
  private namesChanged: NamesChangedListener = async () => {};
  private facesAdded: (userId: string) => void = () => {};

  constructor(
    private readonly repo: PeopleRepository,
    private readonly media: MediaStates,
    private readonly rules: GroupingRules,
    private readonly options: PeopleServiceOptions = {},
  ) {}

  /** Who hears of items whose people's names may have changed (one listener: search). */
  onNamesChanged(listener: NamesChangedListener): void {
    this.namesChanged = listener;
  }

  /** Who hears that a user has new faces (one listener: the regroup once they settle). */
  onFacesAdded(listener: (userId: string) => void): void {
    this.facesAdded = listener;
  }

  // ---- reading ----------------------------------------------------------------------------------

  /** The names of the named people in one of the user's items (search's `PeopleNames`). */
  async namesOf(userId: string, mediaItemId: string): Promise<string[]> {
    const ids = [
      ...new Set((await this.repo.facesOfItem(userId, mediaItemId)).flatMap((f) => (f.personId ? [f.personId] : []))),
    ];
    return (await this.repo.peopleByIds(userId, ids)).flatMap((p) => (p.name ? [p.name] : []));
  }

  /** A page of the user's people with a visible item (only the hidden ones with `hidden`): most items first, then by name. */
  async list(userId: string, page: number, limit: number, hidden = false): Promise<PersonV1[]> {
    return (await this.repo.listPeople(userId, hidden, (page - 1) * limit, limit)).map(toPersonV1);
  }

  /** One of the user's people, also hidden or with no visible item. */
  async get(userId: string, id: string): Promise<PersonV1> {
    return toPersonV1(await this.existing(userId, id));
  }

  /** A page of the person's faces, newest photo first (hidden and trashed photos too: the user corrects faces). */
  async faces(userId: string, id: string, page: number, limit: number): Promise<FaceV1[]> {
    await this.existing(userId, id);
    return (await this.repo.facesOfPerson(userId, id, (page - 1) * limit, limit)).map(toFaceV1);
  }

  /** Ids of a page of the person's visible items, newest first. */
  async itemIds(userId: string, id: string, page: number, limit: number): Promise<string[]> {
    await this.existing(userId, id);
    return this.repo.visibleItemIds(userId, id, (page - 1) * limit, limit);
  }

  /** The people in one of the user's items, by name: none until it is processed. */
  async ofItem(userId: string, mediaItemId: string): Promise<PersonV1[]> {
    const faces = await this.repo.facesOfItem(userId, mediaItemId);
    if (
      faces.length === 0 &&
      !(await this.repo.itemKnown(userId, mediaItemId)) &&
      !(await this.media.stateOf(userId, mediaItemId))
    )
      throw mediaItemNotFound();
    const ids = [...new Set(faces.flatMap((f) => (f.personId ? [f.personId] : [])))];
    return (await this.repo.peopleByIds(userId, ids)).map(toPersonV1);
  }

  /** Where a face's thumbnail is: the user's face, or any face when `userId` is left out (a verified signed URL). */
  async locateFace(userId: string | undefined, id: string): Promise<ContentLocationV1> {
    const face = await this.repo.faceById(id);
    if (!face || (userId !== undefined && face.userId !== userId)) throw faceNotFound();
    return {
      key: face.thumbnailKey,
      contentType: 'image/webp',
      filename: `face-${face._id}.webp`,
      userId: face.userId,
    };
  }

  // ---- the user's changes -----------------------------------------------------------------------

  async update(userId: string, id: string, changes: PersonUpdate): Promise<void> {
    await this.existing(userId, id);
    const cover = changes.coverMediaItemId;
    if (cover && !(await this.repo.personInItem(userId, id, cover))) {
      // Another user's item answers as a missing one; the user's own photo of someone else is refused.
      if (!(await this.repo.itemKnown(userId, cover)) && !(await this.media.stateOf(userId, cover)))
        throw mediaItemNotFound();
      throw badRequest('the cover must be a photo of this person', { coverMediaItemId: cover });
    }
    await this.repo.updatePerson(userId, id, {
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.hidden !== undefined ? { hidden: changes.hidden } : {}),
      ...(cover !== undefined ? { chosenCoverMediaItemId: cover } : {}),
    });
    if (cover !== undefined) await this.repo.refreshSummary(userId, id);
    if (changes.name !== undefined) await this.namesChanged(userId, await this.repo.itemIdsOfPeople(userId, [id]));
  }

  /** The faces of `others` become `id`'s; they are removed. The result keeps `id`'s name, else the first named one's. */
  async merge(userId: string, id: string, others: string[]): Promise<void> {
    await this.oneAtATime(userId, async () => {
      const target = await this.existing(userId, id);
      const ids = [...new Set(others)].filter((o) => o !== id);
      const found = await this.repo.peopleByIds(userId, ids);
      if (found.length !== ids.length) throw personNotFound();
      const named = target.name ? undefined : ids.map((o) => found.find((p) => p._id === o)!).find((p) => p.name);
      await this.repo.moveFaces(userId, ids, id);
      if (named) await this.repo.updatePerson(userId, id, { name: named.name });
      await this.repo.deletePeople(userId, ids);
      await this.repo.refreshSummary(userId, id);
    });
    await this.namesChanged(userId, await this.repo.itemIdsOfPeople(userId, [id]));
  }

  /**
   * The user gives a face to a person: it moves there for good (grouping never moves it again, and
   * the person is no longer one it is not). Either not the user's: not found.
   */
  async assignFace(userId: string, personId: string, faceId: string): Promise<void> {
    const moved = await this.oneAtATime(userId, async () => {
      await this.existing(userId, personId);
      const face = await this.repo.faceOfUser(userId, faceId);
      if (!face) throw faceNotFound();
      await this.repo.correctFace(userId, faceId, {
        personId,
        pinned: true,
        rejected: (face.rejected ?? []).filter((p) => p !== personId),
      });
      await this.refresh(userId, [face.personId, personId]);
      return face;
    });
    await this.namesChanged(userId, [moved.mediaItemId]);
  }

  /**
   * "Not this person": the face leaves the person and waits unassigned; grouping never gives it to
   * them again. Not found unless the person is the user's and has the face.
   */
  async removeFace(userId: string, personId: string, faceId: string): Promise<void> {
    const removed = await this.oneAtATime(userId, async () => {
      await this.existing(userId, personId);
      const face = await this.repo.faceOfUser(userId, faceId);
      if (!face || face.personId !== personId) throw faceNotFound();
      await this.repo.correctFace(userId, faceId, {
        personId: null,
        pinned: false,
        rejected: [...new Set([...(face.rejected ?? []), personId])],
      });
      await this.refresh(userId, [personId]);
      return face;
    });
    await this.namesChanged(userId, [removed.mediaItemId]);
  }

  /**
   * Groups all of the user's faces again from scratch (`regroup` of grouping.ts: the core-point
   * rule, split people merged), in a stable order. Each group keeps the id (name, hidden, cover
   * choice) of the old person it mostly holds; named and hidden people are never removed nor merged
   * with one another; the user's pins and rejections hold. Old people left without a face are
   * removed. After a `faces` job (`events.v1.people.regroup.requested`) and on request
   * (`trove.v1.explore.people.regroup`).
   */
  async regroup(userId: string): Promise<{ faces: number; people: number; moved: number }> {
    const { counts, movedItems } = await this.oneAtATime(userId, async () => {
      const faces = await this.groupedFacesOf(userId);
      const kept = new Set(await this.repo.keptPeopleIds(userId));
      // Step by step: a large library's regroup takes minutes, during which explore keeps answering.
      const { personOf, created, dropped } = await cooperatively(
        regroupSteps(faces, this.rules, randomUUID, kept),
        this.options.sliceMs,
      );
      for (const id of created) await this.repo.createPerson(userId, id);
      const moved = faces.filter((f) => personOf.get(f.id) !== f.personId);
      for (const f of moved) await this.repo.setPersonOfFace(userId, f.id, personOf.get(f.id) ?? null);
      await this.repo.deletePeople(userId, dropped);
      const people = await this.repo.allPeopleIds(userId);
      await Promise.all(people.map((p) => this.repo.refreshSummary(userId, p)));
      return {
        counts: { faces: faces.length, people: people.length, moved: moved.length },
        movedItems: [...new Set(moved.map((f) => f.mediaItemId))],
      };
    });
    // Only items a face of which changed person may show other names.
    if (movedItems.length > 0) await this.namesChanged(userId, movedItems);
    return counts;
  }

  /** How many faces the user has (whether a regroup after new faces is affordable). */
  async faceCount(userId: string): Promise<number> {
    return this.repo.faceCount(userId);
  }

  // ---- what happens elsewhere: results, media changes, user deletion ----------------------------
  // Each runs after explore's own handling of the same event (the item's record is up to date).

  /** A worker's result: the item's faces are replaced and grouped; the people they joined and left are refreshed. */
  async itemProcessed(result: MediaItemProcessedV1): Promise<void> {
    const { userId, mediaItemId, faces } = result;
    if (faces === undefined) return;
    await this.oneAtATime(userId, async () => {
      if (!(await this.repo.itemKnown(userId, mediaItemId))) return; // purged, or the user deleted
      const { before, alike } = await this.facesAlikeTo(
        userId,
        mediaItemId,
        faces.map((f) => decodeEmbedding(f.embedding)),
      );
      const grouping = new FaceGrouping(alike, this.rules, randomUUID);
      const docs: FaceDoc[] = faces.map((face, index) => {
        const embedding = decodeEmbedding(face.embedding);
        const doc: FaceDoc = {
          _id: faceId(mediaItemId, index),
          userId,
          mediaItemId,
          index,
          box: face.box,
          score: face.score,
          embedding: face.embedding,
          thumbnailKey: face.thumbnailKey,
          personId: null,
          ...(face.quality !== undefined ? { quality: face.quality } : {}),
        };
        // The same face as before (same place, and alike or from another model): the user's corrections stay with it.
        const earlier = this.sameFace(before, face.box, embedding);
        if (earlier?.rejected?.length) doc.rejected = earlier.rejected;
        const id = `new-${index}`;
        const carried =
          earlier?.personId && (earlier.pinned || decodeEmbedding(earlier.embedding).length !== embedding.length);
        if (carried) {
          // Pinned by the user, or a face of the earlier model (nothing to compare it with yet): it keeps its person.
          doc.personId = earlier.personId;
          if (earlier.pinned) doc.pinned = true;
          grouping.place({ id, embedding, personId: doc.personId, pinned: doc.pinned ?? false });
        } else
          doc.personId = grouping.add({
            id,
            embedding,
            ...(doc.quality !== undefined ? { quality: doc.quality } : {}),
            ...(doc.rejected ? { rejected: doc.rejected } : {}),
          });
        return doc;
      });
      for (const id of grouping.newPeople) await this.repo.createPerson(userId, id);
      // Waiting faces a new person took (never the item's own: those are replaced below).
      const replaced = new Set(before.map((f) => f._id));
      for (const { id, personId } of grouping.changed())
        if (!replaced.has(id)) await this.repo.setPersonOfFace(userId, id, personId);
      const left = await this.repo.replaceItemFaces(userId, mediaItemId, docs);
      await this.refresh(userId, [...left, ...grouping.newPeople, ...docs.map((d) => d.personId)]);
      // Purged (or the user deleted) while this ran: its faces go too, and the people they started.
      if (!(await this.repo.itemKnown(userId, mediaItemId))) {
        await this.itemPurged(userId, mediaItemId);
        for (const { id } of grouping.changed())
          if (!replaced.has(id)) await this.repo.setPersonOfFace(userId, id, null);
        await this.repo.deletePeople(userId, grouping.newPeople);
      }
    });
    // A face may have joined a named person: the item's names for search.
    await this.namesChanged(userId, [mediaItemId]);
    if (faces.length > 0) this.facesAdded(userId);
  }

  /** The item was updated, trashed or restored (explore has its new state): its people are recounted. */
  async itemChanged(userId: string, mediaItemId: string): Promise<void> {
    const faces = await this.repo.facesOfItem(userId, mediaItemId);
    await this.refresh(
      userId,
      faces.map((f) => f.personId),
    );
  }

  /** The item is gone for good: its faces go; its people stay (maybe with no photo). */
  async itemPurged(userId: string, mediaItemId: string): Promise<void> {
    await this.refresh(userId, await this.repo.deleteItemFaces(userId, mediaItemId));
  }

  async userDeleted(userId: string): Promise<void> {
    await this.repo.deleteUserData(userId);
  }

  // ---- helpers ----------------------------------------------------------------------------------

  /**
   * Every face of the user as grouping sees it (and its item), in id order (a stable one): read a page
   * at a time and kept without the stored documents (their base64 embeddings, boxes, keys), less than
   * half their size.
   */
  private async groupedFacesOf(userId: string): Promise<Array<GroupedFace & { mediaItemId: string }>> {
    const faces: Array<GroupedFace & { mediaItemId: string }> = [];
    for await (const doc of this.facesOf(userId)) faces.push({ ...groupedFace(doc), mediaItemId: doc.mediaItemId });
    return faces.sort((a, b) => byId(a.id, b.id));
  }

  /** Every stored face of the user, read a page at a time. */
  private async *facesOf(userId: string): AsyncGenerator<FaceDoc> {
    for await (const page of this.repo.facesOfUserPaged(userId, this.options.facePageSize ?? FACE_PAGE_SIZE))
      yield* page;
  }

  /**
   * What grouping a new item's faces needs of the user's known faces: the item's earlier faces
   * (`before`, in id order), and the known faces alike to at least one new face (`alike`, in id
   * order): the only ones `FaceGrouping.add` can match or give a person. The item's earlier faces
   * stay candidates (the same face again finds its person) unless they wait unassigned. The user's
   * faces are read a page at a time: memory holds a page and the alike faces, not the whole library.
   */
  private async facesAlikeTo(
    userId: string,
    mediaItemId: string,
    embeddings: Float32Array[],
  ): Promise<{ before: FaceDoc[]; alike: GroupedFace[] }> {
    const before = (await this.repo.facesOfItem(userId, mediaItemId)).sort((a, b) => byId(a._id, b._id));
    const alike: GroupedFace[] = [];
    if (embeddings.length === 0) return { before, alike };
    for await (const doc of this.facesOf(userId)) {
      if (doc.mediaItemId === mediaItemId && doc.personId === null) continue;
      const face = groupedFace(doc);
      if (embeddings.some((e) => cosineDistance(e, face.embedding) <= this.rules.maxDistance)) alike.push(face);
    }
    return { before, alike: alike.sort((a, b) => byId(a.id, b.id)) };
  }

  /**
   * The item's earlier face a new one replaces: the one its box overlaps most (at least half),
   * when their embeddings are alike or cannot be compared (another model made the earlier one).
   */
  private sameFace(before: FaceDoc[], box: FaceBox, embedding: Float32Array): FaceDoc | undefined {
    let best: [FaceDoc, number] | undefined;
    for (const f of before) {
      const o = overlap(f.box, box);
      if (o >= 0.5 && (!best || o > best[1])) best = [f, o];
    }
    if (!best) return undefined;
    const earlier = decodeEmbedding(best[0].embedding);
    return earlier.length !== embedding.length || cosineDistance(earlier, embedding) <= this.rules.maxDistance
      ? best[0]
      : undefined;
  }

  private async existing(userId: string, id: string): Promise<PersonDoc> {
    const person = await this.repo.person(userId, id);
    if (!person) throw personNotFound();
    return person;
  }

  private async refresh(userId: string, personIds: Array<string | null>): Promise<void> {
    const ids = [...new Set(personIds)].filter((p): p is string => p !== null);
    await Promise.all(ids.map((id) => this.repo.refreshSummary(userId, id)));
  }

  /** Runs `task` after every earlier task of the same user in this process (grouping reads, then writes). */
  private async oneAtATime<T>(userId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.userLocks.get(userId) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(task);
    const settled = run.catch(() => undefined);
    this.userLocks.set(userId, settled);
    void settled.then(() => {
      if (this.userLocks.get(userId) === settled) this.userLocks.delete(userId);
    });
    return run;
  }
}
