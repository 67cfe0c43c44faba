import { randomUUID } from 'node:crypto';
import { clockOf, DocRepository, DuplicateKeyError, openCollections, unavailable } from '@trove/kit';
import type { Collection, DocStore, Filter, RepositoryOptions } from '@trove/kit';
import { DELETED_USERS, groupsOf, ITEMS, PLACES, THINGS } from './document';
import type { GroupDoc, GroupDocs, GroupIds, GroupKind, ItemDoc, PlaceFields } from './document';

/** Where an item is filed; a kind left undefined keeps what the item had. */
export interface Filing {
  placeId?: string | null;
  thingIds?: string[];
}

/** A purged item's state: no later read of the media service can make it visible again. */
const FOREVER = new Date(8.64e15);
/** Attempts at filing an item while concurrent filings of it keep winning, before giving up (the event is then redelivered). */
const ATTEMPTS = 10;

const MEMBERSHIP: Record<GroupKind, 'placeId' | 'thingIds'> = { place: 'placeId', thing: 'thingIds' };
const NEWEST_FIRST = { creationTime: -1, _id: -1 } as const;
/** Lists: most visible items first, then by name; `_id` last so pages never overlap. */
const LIST_ORDER = { mediaItemsCount: -1, nameKey: 1, _id: 1 } as const;

const union = (...lists: string[][]): string[] => [...new Set(lists.flat())];

const COLLECTIONS = { items: ITEMS, places: PLACES, things: THINGS, deletedUsers: DELETED_USERS };

/**
 * Explore's documents: `explore_items` (one per media item, with its place and things),
 * `explore_places`, `explore_things` and `explore_deleted_users`. Every query carries the user id.
 */
export class PlacesThingsRepository extends DocRepository<typeof COLLECTIONS> {
  static async open(store: DocStore, opts: RepositoryOptions = {}): Promise<PlacesThingsRepository> {
    return new PlacesThingsRepository(await openCollections(store, COLLECTIONS), clockOf(opts));
  }

  private groups<K extends GroupKind>(kind: K): Collection<GroupDocs[K]> {
    // The one cast: which collection holds which document type is decided right here.
    return (kind === 'place' ? this.c.places : this.c.things) as unknown as Collection<GroupDocs[K]>;
  }

  // ---- items ----------------------------------------------------------------------------------

  async item(userId: string, id: string): Promise<ItemDoc | null> {
    return this.c.items.findOne({ _id: id, userId });
  }

  /**
   * Files the item (a new one is not visible until its state is applied). Answers the filing's
   * number and every group whose summary must be refreshed: where it is now, where it left, and
   * where it left in earlier filings that were never settled.
   */
  async fileItem(
    userId: string,
    id: string,
    creationTime: Date,
    filing: Filing,
  ): Promise<{ filing: number; refresh: GroupIds }> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const before = await this.c.items.findOne({ _id: id, userId });
      if (!before) {
        const doc: ItemDoc = {
          _id: id,
          userId,
          creationTime,
          placeId: filing.placeId ?? null,
          thingIds: filing.thingIds ?? [],
          hidden: false,
          trashed: false,
          visible: false,
          stateVersion: null,
          filing: 1,
          leftPlaceIds: [],
          leftThingIds: [],
        };
        try {
          await this.c.items.insertOne(doc);
          return { filing: 1, refresh: groupsOf(doc) };
        } catch (err) {
          if (!(err instanceof DuplicateKeyError)) throw err;
          continue; // filed at the same moment by a redelivery: file over it
        }
      }
      const placeId = filing.placeId === undefined ? before.placeId : filing.placeId;
      const thingIds = filing.thingIds ?? before.thingIds;
      const leftPlaceIds = union(
        before.leftPlaceIds,
        before.placeId && before.placeId !== placeId ? [before.placeId] : [],
      );
      const leftThingIds = union(
        before.leftThingIds,
        before.thingIds.filter((t) => !thingIds.includes(t)),
      );
      const res = await this.c.items.updateOne(
        { _id: id, userId, filing: before.filing },
        { $set: { creationTime, placeId, thingIds, leftPlaceIds, leftThingIds }, $inc: { filing: 1 } },
      );
      if (res.matched > 0) {
        return {
          filing: before.filing + 1,
          refresh: { placeIds: union(leftPlaceIds, placeId ? [placeId] : []), thingIds: union(leftThingIds, thingIds) },
        };
      }
    }
    throw unavailable('explore item busy: filing kept losing to concurrent ones');
  }

  /** The groups left by filing `filing` are refreshed: forget them (unless the item was filed again since). */
  async settleFiling(userId: string, id: string, filing: number): Promise<void> {
    await this.c.items.updateOne({ _id: id, userId, filing }, { $set: { leftPlaceIds: [], leftThingIds: [] } });
  }

  /**
   * The item's hidden/trashed state as the media service answered it at `version`. Answers the item
   * after the change, or null when explore does not know the item or already has a newer state.
   */
  async applyState(
    userId: string,
    id: string,
    state: { hidden: boolean; trashed: boolean },
    version: Date,
  ): Promise<ItemDoc | null> {
    const notNewer: Filter = { $or: [{ stateVersion: null }, { stateVersion: { $lte: version } }] };
    return this.c.items.findOneAndUpdate(
      { _id: id, userId, ...notNewer },
      {
        $set: {
          hidden: state.hidden,
          trashed: state.trashed,
          visible: !state.hidden && !state.trashed,
          stateVersion: version,
        },
      },
    );
  }

  /** A purged item stops being visible for good (no late read can bring it back); answers it, or null when unknown. */
  async retireItem(userId: string, id: string): Promise<ItemDoc | null> {
    return this.c.items.findOneAndUpdate({ _id: id, userId }, { $set: { visible: false, stateVersion: FOREVER } });
  }

  async deleteItem(userId: string, id: string): Promise<void> {
    await this.c.items.deleteOne({ _id: id, userId });
  }

  // ---- places and things ----------------------------------------------------------------------

  /** The user's place with this key, created (empty) when there is none yet. */
  async placeFor(userId: string, key: string, fields: PlaceFields): Promise<string> {
    return this.groupFor('place', userId, key, fields);
  }

  /** The user's thing with this key, created (empty) when there is none yet. */
  async thingFor(userId: string, key: string, name: string): Promise<string> {
    return this.groupFor('thing', userId, key, { name });
  }

  private async groupFor(kind: GroupKind, userId: string, key: string, fields: { name: string }): Promise<string> {
    const groups: Collection<GroupDoc> = this.groups(kind);
    const existing = await groups.findOne({ userId, key });
    if (existing) return existing._id;
    const now = this.now();
    const doc: GroupDoc = {
      _id: randomUUID(),
      userId,
      key,
      ...fields,
      nameKey: fields.name.toLowerCase(),
      coverMediaItemId: null,
      mediaItemsCount: 0,
      revision: 0,
      createdAt: now,
      updatedAt: now,
    };
    try {
      await groups.insertOne(doc);
      return doc._id;
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      // Created at the same moment by another event of the same user.
      const created = await groups.findOne({ userId, key });
      if (!created) throw err;
      return created._id;
    }
  }

  async group<K extends GroupKind>(kind: K, userId: string, id: string): Promise<GroupDocs[K] | null> {
    return this.groups(kind).findOne({ _id: id, userId });
  }

  /** A page of the user's places or things that have a visible item. */
  async listGroups<K extends GroupKind>(
    kind: K,
    userId: string,
    skip: number,
    limit: number,
  ): Promise<Array<GroupDocs[K]>> {
    return this.groups(kind).find({ userId, mediaItemsCount: { $gt: 0 } }, { sort: LIST_ORDER, skip, limit });
  }

  /** The user's places or things among `ids`, by name. */
  async groupsByIds<K extends GroupKind>(kind: K, userId: string, ids: string[]): Promise<Array<GroupDocs[K]>> {
    if (ids.length === 0) return [];
    return this.groups(kind).find({ userId, _id: { $in: ids } }, { sort: { nameKey: 1, _id: 1 } });
  }

  /** Ids of a slice of a group's visible items, newest first. */
  async visibleItemIds(
    kind: GroupKind,
    userId: string,
    groupId: string,
    skip: number,
    limit: number,
  ): Promise<string[]> {
    const items = await this.c.items.find(
      { userId, [MEMBERSHIP[kind]]: groupId, visible: true },
      { sort: NEWEST_FIRST, skip, limit },
    );
    return items.map((i) => i._id);
  }

  /**
   * Recounts a group's visible items and takes the newest as its cover. A refresh first bumps the
   * group's revision and writes only if no other refresh bumped it since: that later refresh read
   * the items after this one's change, so its summary is the one to keep (it never needs a retry).
   * Nothing when the group is gone.
   */
  async refreshSummary(kind: GroupKind, userId: string, groupId: string): Promise<void> {
    const groups: Collection<GroupDoc> = this.groups(kind);
    const claimed = await groups.findOneAndUpdate({ _id: groupId, userId }, { $inc: { revision: 1 } });
    if (!claimed) return;
    const members: Filter = { userId, [MEMBERSHIP[kind]]: groupId, visible: true };
    const [count, [newest]] = await Promise.all([
      this.c.items.count(members),
      this.c.items.find(members, { sort: NEWEST_FIRST, limit: 1 }),
    ]);
    await groups.updateOne(
      { _id: groupId, userId, revision: claimed.revision },
      { $set: { mediaItemsCount: count, coverMediaItemId: newest?._id ?? null, updatedAt: this.now() } },
    );
  }

  // ---- users ----------------------------------------------------------------------------------

  /** Remembers the deletion first, so an event racing with it can tell and clean up after itself. */
  async markUserDeleted(userId: string): Promise<void> {
    await this.c.deletedUsers.updateOne({ _id: userId }, { $set: { deletedAt: this.now() } }, { upsert: true });
  }

  async isUserDeleted(userId: string): Promise<boolean> {
    return (await this.c.deletedUsers.count({ _id: userId })) > 0;
  }

  /** Every item, place and thing of the user. */
  async deleteUserData(userId: string): Promise<void> {
    await this.c.items.deleteMany({ userId });
    await this.c.places.deleteMany({ userId });
    await this.c.things.deleteMany({ userId });
  }
}
