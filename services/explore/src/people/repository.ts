import { randomUUID } from 'node:crypto';
import { clockOf, DocRepository, openCollections } from '@trove/kit';
import type { DocStore, Filter, RepositoryOptions } from '@trove/kit';
import { ITEMS } from '../places-things/document';
import type { ItemDoc } from '../places-things/document';
import { FACES, PEOPLE } from './document';
import type { CoverFace, FaceDoc, PersonDoc } from './document';

export type PersonChanges = Partial<Pick<PersonDoc, 'name' | 'hidden' | 'chosenCoverMediaItemId'>>;

const NEWEST_FIRST = { creationTime: -1, _id: -1 } as const;
/** Lists: most visible items first, then by name; `_id` last so pages never overlap. */
const LIST_ORDER = { mediaItemsCount: -1, nameKey: 1, _id: 1 } as const;

const COLLECTIONS = { faces: FACES, people: PEOPLE, items: ITEMS };

/**
 * People's documents: `explore_faces` and `explore_people`; it reads `explore_items` (the explore
 * module's record of each item: when it was taken, whether lists may show it). Every query
 * carries the user id but `faceById`, which serves signed thumbnail URLs.
 */
export class PeopleRepository extends DocRepository<typeof COLLECTIONS> {
  static async open(store: DocStore, opts: RepositoryOptions = {}): Promise<PeopleRepository> {
    return new PeopleRepository(await openCollections(store, COLLECTIONS), clockOf(opts));
  }

  // ---- items (explore's record) -----------------------------------------------------------------

  /** Whether explore has filed the item (it is the user's, processed and not purged). */
  async itemKnown(userId: string, mediaItemId: string): Promise<boolean> {
    return (await this.c.items.count({ _id: mediaItemId, userId })) > 0;
  }

  // ---- faces ------------------------------------------------------------------------------------

  /**
   * Every face of the user, a page at a time in (item, id) order (the `userId, mediaItemId` index,
   * from where the last page ended): a large library's faces are looked through, never held at once.
   */
  async *facesOfUserPaged(userId: string, pageSize: number): AsyncGenerator<FaceDoc[]> {
    let after: FaceDoc | undefined;
    for (;;) {
      const filter: Filter = { userId };
      // The bound on the item is where the index is read from (an `$or` alone narrows nothing on the embedded
      // store); the `$or` leaves out the faces of that item already read.
      if (after) {
        filter.mediaItemId = { $gte: after.mediaItemId };
        filter.$or = [{ mediaItemId: { $gt: after.mediaItemId } }, { _id: { $gt: after._id } }];
      }
      const page = await this.c.faces.find(filter, { sort: { mediaItemId: 1, _id: 1 }, limit: pageSize });
      if (page.length > 0) yield page;
      if (page.length < pageSize) return;
      after = page[page.length - 1];
    }
  }

  async faceCount(userId: string): Promise<number> {
    return this.c.faces.count({ userId });
  }

  async facesOfItem(userId: string, mediaItemId: string): Promise<FaceDoc[]> {
    return this.c.faces.find({ userId, mediaItemId }, { sort: { index: 1 } });
  }

  async faceById(id: string): Promise<FaceDoc | null> {
    return this.c.faces.findOne({ _id: id });
  }

  /** The item's faces become `faces` (ids decide what is replaced); answers the people its old faces had. */
  async replaceItemFaces(userId: string, mediaItemId: string, faces: FaceDoc[]): Promise<string[]> {
    const old = await this.facesOfItem(userId, mediaItemId);
    const keep = new Set(faces.map((f) => f._id));
    await this.c.faces.deleteMany({ userId, mediaItemId, _id: { $nin: [...keep] } });
    for (const { _id, ...fields } of faces)
      await this.c.faces.updateOne({ _id, userId }, { $set: fields }, { upsert: true });
    return personIds(old);
  }

  /** Removes the item's faces; answers the people they had. */
  async deleteItemFaces(userId: string, mediaItemId: string): Promise<string[]> {
    const old = await this.facesOfItem(userId, mediaItemId);
    await this.c.faces.deleteMany({ userId, mediaItemId });
    return personIds(old);
  }

  /** One of the user's faces. */
  async faceOfUser(userId: string, id: string): Promise<FaceDoc | null> {
    return this.c.faces.findOne({ _id: id, userId });
  }

  /** A slice of the person's faces, newest item first (every item: the user corrects faces, not photos). */
  async facesOfPerson(userId: string, personId: string, skip: number, limit: number): Promise<FaceDoc[]> {
    const faces = await this.c.faces.find({ userId, personId });
    if (faces.length === 0) return [];
    const items = await this.c.items.find({ userId, _id: { $in: [...new Set(faces.map((f) => f.mediaItemId))] } });
    const taken = new Map(items.map((i) => [i._id, i.creationTime.getTime()]));
    const when = (f: FaceDoc) => taken.get(f.mediaItemId) ?? -Infinity;
    faces.sort((a, b) => when(b) - when(a) || a.mediaItemId.localeCompare(b.mediaItemId) || a.index - b.index);
    return faces.slice(skip, skip + limit);
  }

  /** The user's correction of one face: its person, whether they chose it, the people it is not. */
  async correctFace(
    userId: string,
    faceId: string,
    change: { personId: string | null; pinned: boolean; rejected: string[] },
  ): Promise<void> {
    await this.c.faces.updateOne({ _id: faceId, userId }, { $set: change });
  }

  async setPersonOfFace(userId: string, faceId: string, personId: string | null): Promise<void> {
    await this.c.faces.updateOne({ _id: faceId, userId }, { $set: { personId } });
  }

  /** Moves every face of `from` people to `to`. */
  async moveFaces(userId: string, from: string[], to: string): Promise<void> {
    await this.c.faces.updateMany({ userId, personId: { $in: from } }, { $set: { personId: to } });
  }

  /** The items holding a face of any of the people, each once. */
  async itemIdsOfPeople(userId: string, personIds: string[]): Promise<string[]> {
    const faces = await this.c.faces.find({ userId, personId: { $in: personIds } });
    return [...new Set(faces.map((f) => f.mediaItemId))];
  }

  /** Whether the item has a face of the person. */
  async personInItem(userId: string, personId: string, mediaItemId: string): Promise<boolean> {
    return (await this.c.faces.count({ userId, personId, mediaItemId })) > 0;
  }

  // ---- people -----------------------------------------------------------------------------------

  async createPerson(userId: string, id: string = randomUUID()): Promise<string> {
    const now = this.now();
    await this.c.people.insertOne({
      _id: id,
      userId,
      name: '',
      nameKey: '',
      hidden: false,
      chosenCoverMediaItemId: null,
      coverMediaItemId: null,
      coverFace: null,
      mediaItemsCount: 0,
      revision: 0,
      createdAt: now,
      updatedAt: now,
    });
    return id;
  }

  async person(userId: string, id: string): Promise<PersonDoc | null> {
    return this.c.people.findOne({ _id: id, userId });
  }

  /** A page of the user's hidden or shown people that have a visible item. */
  async listPeople(userId: string, hidden: boolean, skip: number, limit: number): Promise<PersonDoc[]> {
    return this.c.people.find({ userId, hidden, mediaItemsCount: { $gt: 0 } }, { sort: LIST_ORDER, skip, limit });
  }

  /** The user's people among `ids`, by name. */
  async peopleByIds(userId: string, ids: string[]): Promise<PersonDoc[]> {
    if (ids.length === 0) return [];
    return this.c.people.find({ userId, _id: { $in: ids } }, { sort: { nameKey: 1, _id: 1 } });
  }

  /** The user's people grouping must keep: named or hidden ones (the user's choices live on them). */
  async keptPeopleIds(userId: string): Promise<string[]> {
    return (await this.c.people.find({ userId })).filter((p) => p.name !== '' || p.hidden).map((p) => p._id);
  }

  async allPeopleIds(userId: string): Promise<string[]> {
    return (await this.c.people.find({ userId })).map((p) => p._id);
  }

  async updatePerson(userId: string, id: string, changes: PersonChanges): Promise<boolean> {
    const set: Record<string, unknown> = { ...changes, updatedAt: this.now() };
    if (changes.name !== undefined) set.nameKey = changes.name.toLowerCase();
    return (await this.c.people.updateOne({ _id: id, userId }, { $set: set })).matched > 0;
  }

  async deletePeople(userId: string, ids: string[]): Promise<void> {
    if (ids.length > 0) await this.c.people.deleteMany({ userId, _id: { $in: ids } });
  }

  /** Ids of a slice of the person's visible items, newest first. */
  async visibleItemIds(userId: string, personId: string, skip: number, limit: number): Promise<string[]> {
    return (await this.visibleItemsOf(userId, personId, skip, limit)).map((i) => i._id);
  }

  private async visibleItemsOf(userId: string, personId: string, skip = 0, limit = 0): Promise<ItemDoc[]> {
    const itemIds = [...new Set((await this.c.faces.find({ userId, personId })).map((f) => f.mediaItemId))];
    if (itemIds.length === 0) return [];
    return this.c.items.find({ userId, _id: { $in: itemIds }, visible: true }, { sort: NEWEST_FIRST, skip, limit });
  }

  /**
   * Recounts the person's visible items and picks the cover: the user's choice while it is one of
   * them, else the newest, with the person's best face in it. Claims a revision first and writes
   * only if no other refresh claimed one since (that later one read later). Nothing when the person is gone.
   */
  async refreshSummary(userId: string, personId: string): Promise<void> {
    const claimed = await this.c.people.findOneAndUpdate({ _id: personId, userId }, { $inc: { revision: 1 } });
    if (!claimed) return;
    const visible = await this.visibleItemsOf(userId, personId);
    const cover = visible.find((i) => i._id === claimed.chosenCoverMediaItemId) ?? visible[0];
    const [face] = cover
      ? await this.c.faces.find({ userId, personId, mediaItemId: cover._id }, { sort: { score: -1 }, limit: 1 })
      : [];
    const coverFace: CoverFace | null = face
      ? { id: face._id, mediaItemId: face.mediaItemId, box: face.box, score: face.score }
      : null;
    const summary = { mediaItemsCount: visible.length, coverMediaItemId: coverFace?.mediaItemId ?? null, coverFace };
    const before = {
      mediaItemsCount: claimed.mediaItemsCount,
      coverMediaItemId: claimed.coverMediaItemId,
      coverFace: claimed.coverFace,
    };
    // The same summary again (a regroup that moved nothing of theirs) leaves the person as it was, updatedAt too.
    const unchanged = JSON.stringify(summary) === JSON.stringify(before);
    await this.c.people.updateOne(
      { _id: personId, userId, revision: claimed.revision },
      { $set: unchanged ? summary : { ...summary, updatedAt: this.now() } },
    );
  }

  // ---- users ------------------------------------------------------------------------------------

  /** Every face and person of the user. */
  async deleteUserData(userId: string): Promise<void> {
    await this.c.faces.deleteMany({ userId });
    await this.c.people.deleteMany({ userId });
  }
}

function personIds(faces: FaceDoc[]): string[] {
  return [...new Set(faces.flatMap((f) => (f.personId ? [f.personId] : [])))];
}
