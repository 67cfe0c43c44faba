import { randomUUID } from 'node:crypto';
import { clockOf, DocRepository, DuplicateKeyError, openCollections } from '@trove/kit';
import type { DocStore, RepositoryOptions, Filter, SortSpec } from '@trove/kit';
import { ALBUMS, MEMBERS, MEMBERSHIPS, PURGED } from './document';
import type { AlbumDoc, AlbumMemberDoc, MembershipDoc } from './document';

export type AlbumSort = 'name' | 'createdAt' | 'updatedAt' | '-name' | '-createdAt' | '-updatedAt';

export interface AlbumFields {
  name: string;
  description: string | null;
  shared: boolean;
  shareLocation: boolean;
  shareExpiresAt?: Date | null;
  shareAllowDownload?: boolean;
  sharePasswordHash?: string | null;
  shareKey?: string | null;
  hidden: boolean;
}

export interface AlbumChanges {
  name?: string;
  description?: string | null;
  shared?: boolean;
  shareLocation?: boolean;
  shareExpiresAt?: Date | null;
  shareAllowDownload?: boolean;
  sharePasswordHash?: string | null;
  shareKey?: string | null;
  hidden?: boolean;
  coverMediaItemId?: string | null;
}

/** Every sort ends with unique keys, so pages never overlap or skip albums with equal names or times. */
const SORTS: Record<AlbumSort, SortSpec> = {
  name: { nameKey: 1, createdAt: 1, _id: 1 },
  '-name': { nameKey: -1, createdAt: -1, _id: -1 },
  createdAt: { createdAt: 1, _id: 1 },
  '-createdAt': { createdAt: -1, _id: -1 },
  updatedAt: { updatedAt: 1, _id: 1 },
  '-updatedAt': { updatedAt: -1, _id: -1 },
};

const membershipId = (albumId: string, mediaItemId: string) => `${albumId}:${mediaItemId}`;

const COLLECTIONS = { albums: ALBUMS, memberships: MEMBERSHIPS, members: MEMBERS, purged: PURGED };

/**
 * Albums and their memberships in the library's document store. Every album query carries the
 * owner's user id; memberships carry it too, so the media events (which name the user) and user
 * deletion touch only that user's documents.
 */
export class AlbumsRepository extends DocRepository<typeof COLLECTIONS> {
  static async open(store: DocStore, opts: RepositoryOptions = {}): Promise<AlbumsRepository> {
    return new AlbumsRepository(await openCollections(store, COLLECTIONS), clockOf(opts));
  }

  // ---- albums ---------------------------------------------------------------------------------

  /**
   * A new album. With `cover` (an item of the user, whose trash state was read at `stateAt`), that
   * item is the album's first item and its chosen cover.
   */
  async create(
    userId: string,
    fields: AlbumFields,
    cover?: { mediaItemId: string; trashed: boolean; hidden: boolean; stateAt: Date },
  ): Promise<AlbumDoc> {
    const now = this.now();
    const album: AlbumDoc = {
      _id: randomUUID(),
      userId,
      ...fields,
      nameKey: fields.name.toLowerCase(),
      coverMediaItemId: cover?.mediaItemId ?? null,
      nextSeq: cover ? 1 : 0,
      createdAt: now,
      updatedAt: now,
    };
    await this.c.albums.insertOne(album);
    if (!cover) return album;
    const { mediaItemId, trashed, hidden, stateAt } = cover;
    await this.c.memberships.insertOne({
      _id: membershipId(album._id, mediaItemId),
      albumId: album._id,
      userId,
      mediaItemId,
      seq: 0,
      addedAt: now,
      trashed,
      stateAt,
      hidden,
      hiddenVersion: null,
    });
    if ((await this.c.purged.count({ userId, mediaItemId })) > 0) {
      // Purged while we created: the album stays, without it.
      await this.c.memberships.deleteMany({ albumId: album._id });
      await this.c.albums.updateOne({ _id: album._id }, { $set: { coverMediaItemId: null } });
      album.coverMediaItemId = null;
    }
    return album;
  }

  async get(userId: string, id: string): Promise<AlbumDoc | null> {
    return this.c.albums.findOne({ _id: id, userId });
  }

  /** Any user's album: for the public sharing calls, which check `shared` themselves. */
  async getById(id: string): Promise<AlbumDoc | null> {
    return this.c.albums.findOne({ _id: id });
  }

  async list(
    userId: string,
    q: { sort: AlbumSort; page: number; limit: number; shared?: boolean; hidden: boolean; sharedWith?: string[] },
  ): Promise<AlbumDoc[]> {
    // Albums shared with the user come with their own (the owner's hidden flag is theirs: not a filter).
    const withShared = !q.hidden && q.sharedWith && q.sharedWith.length > 0;
    const filter: Filter = withShared
      ? { $or: [{ userId, hidden: false }, { _id: { $in: q.sharedWith } }] }
      : { userId, hidden: q.hidden };
    if (q.shared !== undefined) filter.shared = q.shared;
    return this.c.albums.find(filter, { sort: SORTS[q.sort], skip: (q.page - 1) * q.limit, limit: q.limit });
  }

  async findByIds(userId: string, ids: string[]): Promise<AlbumDoc[]> {
    if (ids.length === 0) return [];
    return this.c.albums.find({ userId, _id: { $in: ids } }, { sort: SORTS.name });
  }

  /** Any users' albums among `ids`, ordered by name (the caller checks who may see each). */
  async findAnyByIds(ids: string[]): Promise<AlbumDoc[]> {
    if (ids.length === 0) return [];
    return this.c.albums.find({ _id: { $in: ids } }, { sort: SORTS.name });
  }

  /** The updated album, or null when the user has no such album. */
  async update(userId: string, id: string, changes: AlbumChanges): Promise<AlbumDoc | null> {
    const set: Record<string, unknown> = { ...changes, updatedAt: this.now() };
    if (changes.name !== undefined) set.nameKey = changes.name.toLowerCase();
    return this.c.albums.findOneAndUpdate({ _id: id, userId }, { $set: set });
  }

  /** False when the user has no such album. Its memberships go with it; media items are not touched. */
  async delete(userId: string, id: string): Promise<boolean> {
    const removed = await this.c.albums.deleteOne({ _id: id, userId });
    if (removed === 0) return false;
    // Contributors' items leave it too (they stay in their libraries), and its members lose it.
    await this.c.memberships.deleteMany({ albumId: id });
    await this.c.members.deleteMany({ albumId: id });
    return true;
  }

  /** Bumps `updatedAt` after a change of the album's contents. */
  async touch(userId: string, id: string): Promise<void> {
    await this.c.albums.updateOne({ _id: id, userId }, { $set: { updatedAt: this.now() } });
  }

  // ---- memberships ----------------------------------------------------------------------------

  /** Memberships of these items in the album (whatever their trash state). */
  async membershipsOf(albumId: string, mediaItemIds: string[]): Promise<MembershipDoc[]> {
    if (mediaItemIds.length === 0) return [];
    return this.c.memberships.find({ albumId, mediaItemId: { $in: mediaItemIds } });
  }

  /**
   * Appends items to the album after its current last item, in the given order. Items already in
   * it keep their place. `trashed` gives each item's current trash state, read from the media
   * service at `stateAt`. Returns the ids actually added; none when the album is gone.
   */
  async addMembers(
    userId: string,
    albumId: string,
    items: Array<{ mediaItemId: string; trashed: boolean; hidden: boolean }>,
    stateAt: Date,
  ): Promise<string[]> {
    return this.addItemsOf(userId, userId, albumId, items, stateAt);
  }

  /** `addMembers` of a contributor: the album is `ownerId`'s, the items (and their memberships) `userId`'s. */
  async addItemsOf(
    ownerId: string,
    userId: string,
    albumId: string,
    items: Array<{ mediaItemId: string; trashed: boolean; hidden: boolean }>,
    stateAt: Date,
  ): Promise<string[]> {
    const present = new Set(
      (
        await this.membershipsOf(
          albumId,
          items.map((i) => i.mediaItemId),
        )
      ).map((m) => m.mediaItemId),
    );
    const fresh = items.filter((i) => !present.has(i.mediaItemId));
    if (fresh.length === 0) return [];
    const now = this.now();
    // Reserving the sequence numbers and bumping updatedAt is one atomic step.
    const album = await this.c.albums.findOneAndUpdate(
      { _id: albumId, userId: ownerId },
      { $inc: { nextSeq: fresh.length }, $set: { updatedAt: now } },
    );
    if (!album) return [];
    const first = album.nextSeq - fresh.length;
    const added: string[] = [];
    for (const [i, item] of fresh.entries()) {
      const doc: MembershipDoc = {
        _id: membershipId(albumId, item.mediaItemId),
        albumId,
        userId,
        mediaItemId: item.mediaItemId,
        seq: first + i,
        addedAt: now,
        trashed: item.trashed,
        stateAt,
        hidden: item.hidden,
        hiddenVersion: null,
      };
      try {
        await this.c.memberships.insertOne(doc);
        added.push(item.mediaItemId);
      } catch (err) {
        // A concurrent add of the same item got there first: it keeps its place.
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
    }
    if (added.length === 0) return [];
    // Races: the album was deleted, or an item purged, while we added. Undo those memberships.
    if (!(await this.c.albums.findOne({ _id: albumId, userId: ownerId }))) {
      await this.c.memberships.deleteMany({ albumId, userId });
      return [];
    }
    const gone = (await this.c.purged.find({ userId, mediaItemId: { $in: added } })).map((p) => p.mediaItemId);
    if (gone.length > 0) await this.c.memberships.deleteMany({ albumId, mediaItemId: { $in: gone } });
    return added.filter((id) => !gone.includes(id));
  }

  /** Removes items from the album; a removed chosen cover is cleared. Returns how many were in it. */
  async removeMembers(userId: string, albumId: string, mediaItemIds: string[]): Promise<number> {
    const removed = await this.c.memberships.deleteMany({ albumId, userId, mediaItemId: { $in: mediaItemIds } });
    await this.c.albums.updateOne(
      { _id: albumId, userId, coverMediaItemId: { $in: mediaItemIds } },
      { $set: { coverMediaItemId: null } },
    );
    return removed;
  }

  /**
   * Removes items from the album whoever added them (the service checked the caller may); a removed
   * chosen cover is cleared. Returns how many were in it.
   */
  async removeAnyMembers(albumId: string, mediaItemIds: string[]): Promise<number> {
    const removed = await this.c.memberships.deleteMany({ albumId, mediaItemId: { $in: mediaItemIds } });
    await this.c.albums.updateOne(
      { _id: albumId, coverMediaItemId: { $in: mediaItemIds } },
      { $set: { coverMediaItemId: null } },
    );
    return removed;
  }

  /** What `viewerId` sees of an album: items not trashed, hidden ones only when they are the viewer's own. */
  private viewable(albumId: string, viewerId: string): Filter {
    return { albumId, trashed: false, $or: [{ hidden: false }, { userId: viewerId }] };
  }

  async countViewable(albumId: string, viewerId: string): Promise<number> {
    return this.c.memberships.count(this.viewable(albumId, viewerId));
  }

  /** A slice of what `viewerId` sees of the album, in the order added. */
  async viewableMembers(albumId: string, viewerId: string, skip: number, limit: number): Promise<MembershipDoc[]> {
    return this.c.memberships.find(this.viewable(albumId, viewerId), { sort: { seq: 1 }, skip, limit });
  }

  /** The membership of the item when `viewerId` sees it in the album, else null. */
  async viewableMember(albumId: string, viewerId: string, mediaItemId: string): Promise<MembershipDoc | null> {
    return this.c.memberships.findOne({ ...this.viewable(albumId, viewerId), mediaItemId });
  }

  /** Which of these items `viewerId` sees in the album (one range of its album-and-item index). */
  async viewableAmong(albumId: string, viewerId: string, mediaItemIds: string[]): Promise<string[]> {
    if (mediaItemIds.length === 0) return [];
    const held = await this.c.memberships.find({
      ...this.viewable(albumId, viewerId),
      mediaItemId: { $in: mediaItemIds },
    });
    return held.map((m) => m.mediaItemId);
  }

  // ---- members: other users an album is shared with ---------------------------------------------

  /** Shares the album with `userId` in `role`; sharing again changes the role (and keeps when they were added). */
  async putMember(
    ownerId: string,
    albumId: string,
    userId: string,
    role: AlbumMemberDoc['role'],
  ): Promise<AlbumMemberDoc> {
    const _id = `${albumId}:${userId}`;
    const existing = await this.c.members.findOneAndUpdate({ _id }, { $set: { role } });
    if (existing) return existing;
    const doc: AlbumMemberDoc = { _id, albumId, ownerId, userId, role, addedAt: this.now() };
    try {
      await this.c.members.insertOne(doc);
      return doc;
    } catch (err) {
      // Added at the same moment by another call: the role asked last wins.
      if (!(err instanceof DuplicateKeyError)) throw err;
      return (await this.c.members.findOneAndUpdate({ _id }, { $set: { role } }))!;
    }
  }

  async member(albumId: string, userId: string): Promise<AlbumMemberDoc | null> {
    return this.c.members.findOne({ _id: `${albumId}:${userId}` });
  }

  async members(albumId: string): Promise<AlbumMemberDoc[]> {
    return this.c.members.find({ albumId }, { sort: { addedAt: 1, _id: 1 } });
  }

  /** Ends a membership at once; false when there was none. */
  async removeMember(albumId: string, userId: string): Promise<boolean> {
    return (await this.c.members.deleteOne({ _id: `${albumId}:${userId}` })) > 0;
  }

  /** The user's memberships of other users' albums. */
  async sharedWith(userId: string): Promise<AlbumMemberDoc[]> {
    return this.c.members.find({ userId });
  }

  /** Items shown in the album: not trashed. */
  async countVisible(albumId: string): Promise<number> {
    return this.c.memberships.count({ albumId, trashed: false });
  }

  /** A slice of the album's non-trashed memberships in the order added. */
  async visibleMembers(albumId: string, skip: number, limit: number): Promise<MembershipDoc[]> {
    return this.c.memberships.find({ albumId, trashed: false }, { sort: { seq: 1 }, skip, limit });
  }

  /** Items a visitor of the shared album sees: neither trashed nor hidden (an index count). */
  async countShared(albumId: string): Promise<number> {
    return this.c.memberships.count({ albumId, trashed: false, hidden: false });
  }

  /** A slice of what a visitor sees, in the order added (memberships not yet backfilled are left out: fail closed). */
  async sharedMembers(albumId: string, skip: number, limit: number): Promise<MembershipDoc[]> {
    return this.c.memberships.find({ albumId, trashed: false, hidden: false }, { sort: { seq: 1 }, skip, limit });
  }

  /** The item's membership when a visitor of the album sees it (in it, neither trashed nor hidden), else null. */
  async sharedMembership(albumId: string, mediaItemId: string): Promise<MembershipDoc | null> {
    return this.c.memberships.findOne({ albumId, mediaItemId, trashed: false, hidden: false });
  }

  /** Ids of the user's albums holding the item. */
  async albumIdsHolding(userId: string, mediaItemId: string): Promise<string[]> {
    return (await this.c.memberships.find({ userId, mediaItemId })).map((m) => m.albumId);
  }

  // ---- media events (each idempotent, safe to replay) ------------------------------------------

  /** The item moved to (trashed=true) or out of the trash at `at`, in every album holding it. Returns memberships changed. */
  async setTrashed(userId: string, mediaItemId: string, trashed: boolean, at: Date): Promise<number> {
    return this.setNewer(userId, mediaItemId, 'stateAt', at, { trashed });
  }

  /**
   * The item's hidden flag as the media service answered it at `version` (the item's updatedAt), in
   * every album holding it; an older answer (a late or replayed event) never overrides a newer one.
   */
  async setHidden(userId: string, mediaItemId: string, hidden: boolean, version: Date): Promise<number> {
    return this.setNewer(userId, mediaItemId, 'hiddenVersion', version, { hidden });
  }

  /** Sets `fields` on the item's memberships whose `versionField` is older than `version` (or unset), and moves it to `version`. */
  private async setNewer(
    userId: string,
    mediaItemId: string,
    versionField: 'stateAt' | 'hiddenVersion',
    version: Date,
    fields: Partial<MembershipDoc>,
  ): Promise<number> {
    const older: Filter = { $or: [{ [versionField]: null }, { [versionField]: { $lt: version } }] };
    const res = await this.c.memberships.updateMany(
      { userId, mediaItemId, ...older },
      { $set: { ...fields, [versionField]: version } },
    );
    return res.modified;
  }

  /** Memberships from before the mirrored hidden flag: a batch of them, for the backfill. */
  async withoutHidden(limit: number): Promise<MembershipDoc[]> {
    return this.c.memberships.find({ hidden: { $exists: false } }, { limit });
  }

  /** Sets the hidden flag of memberships that have none yet (the backfill; an event's newer answer is kept). */
  async backfillHidden(userId: string, mediaItemId: string, hidden: boolean): Promise<void> {
    await this.c.memberships.updateMany(
      { userId, mediaItemId, hidden: { $exists: false } },
      { $set: { hidden, hiddenVersion: null } },
    );
  }

  /** The item is gone for good: out of every album, and no longer anyone's chosen cover. */
  async purgeItem(userId: string, mediaItemId: string, at: Date): Promise<void> {
    await this.c.purged.updateOne(
      { _id: mediaItemId },
      { $set: { userId, mediaItemId, purgedAt: at } },
      { upsert: true },
    );
    await this.c.memberships.deleteMany({ userId, mediaItemId });
    await this.c.albums.updateMany({ userId, coverMediaItemId: mediaItemId }, { $set: { coverMediaItemId: null } });
  }

  /** Everything of a deleted user. */
  async deleteUser(userId: string): Promise<void> {
    // Their albums go with what others contributed to them, and their memberships of others' albums.
    const owned = (await this.c.albums.find({ userId })).map((a) => a._id);
    if (owned.length > 0) await this.c.memberships.deleteMany({ albumId: { $in: owned } });
    await this.c.members.deleteMany({ $or: [{ userId }, { ownerId: userId }] });
    await this.c.albums.deleteMany({ userId });
    await this.c.memberships.deleteMany({ userId });
    await this.c.purged.deleteMany({ userId });
  }
}
