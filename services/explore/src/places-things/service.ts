import type { MediaItemProcessedV1, MediaPlaceV1, PlaceV1, ThingV1 } from '@trove/proto-events';
import { notFound } from '@trove/kit';
import type { AppError } from '@trove/kit';
import type { MediaStates } from '../ports/media';
import { groupsOf, placeFields, toPlaceV1, toThingV1 } from './document';
import type { GroupDocs, GroupIds, GroupKind } from './document';
import type { Filing, PlacesThingsRepository } from './repository';

export const placeNotFound = () => notFound('place not found');
export const thingNotFound = () => notFound('thing not found');
export const mediaItemNotFound = () => notFound('mediaitem not found');

/** One place per user and (country, state, city, town); letter case does not make another place. */
export function placeKey(place: Pick<MediaPlaceV1, 'country' | 'state' | 'city' | 'town'>): string {
  return JSON.stringify([place.country, place.state, place.city, place.town].map((part) => (part ?? '').toLowerCase()));
}

/** One thing per user and label; letter case does not make another thing. */
export function thingKey(label: string): string {
  return label.toLowerCase();
}

const skipOf = (page: number, limit: number) => (page - 1) * limit;

/** What explore answers for each kind of group. */
export interface GroupsV1 {
  place: PlaceV1;
  thing: ThingV1;
}
const PRESENT: { [K in GroupKind]: (doc: GroupDocs[K]) => GroupsV1[K] } = { place: toPlaceV1, thing: toThingV1 };
const NOT_FOUND: Record<GroupKind, () => AppError> = { place: placeNotFound, thing: thingNotFound };

/**
 * Places and things of each user's library. Rules:
 * - an item is filed under the place and the things the worker named for it (one place per user
 *   and (country, state, city, town), one thing per user and label); a result without `place` or
 *   `things` (a worker without that component) keeps what the item had;
 * - an item counts only while it is neither trashed nor hidden, as the media service answers when
 *   asked after each change (events carry only ids, and asking makes their order irrelevant);
 * - a place's or thing's `mediaItemsCount` is its visible items, its cover the newest of them
 *   (creation time); with none it still answers by id (count 0, no cover) but leaves the lists;
 * - lists: most items first, then by name; item lists: newest first, visible items only;
 * - everything is scoped to the user: another user's id is not found.
 */
export class PlacesThingsService {
  constructor(
    private readonly repo: PlacesThingsRepository,
    private readonly media: MediaStates,
  ) {}

  // ---- places and things ---------------------------------------------------------------------

  /** A page of the user's places or things with a visible item: most items first, then by name. */
  async list<K extends GroupKind>(kind: K, userId: string, page: number, limit: number): Promise<Array<GroupsV1[K]>> {
    return (await this.repo.listGroups(kind, userId, skipOf(page, limit), limit)).map((doc) => PRESENT[kind](doc));
  }

  /** One of the user's places or things, also with no visible item. */
  async get<K extends GroupKind>(kind: K, userId: string, id: string): Promise<GroupsV1[K]> {
    const doc = await this.repo.group(kind, userId, id);
    if (!doc) throw NOT_FOUND[kind]();
    return PRESENT[kind](doc);
  }

  /** Ids of a page of the place's or thing's visible items, newest first. */
  async itemIds(kind: GroupKind, userId: string, id: string, page: number, limit: number): Promise<string[]> {
    await this.get(kind, userId, id);
    return this.repo.visibleItemIds(kind, userId, id, skipOf(page, limit), limit);
  }

  /** The place or the things (by name) of one of the user's items: none until it is processed. */
  async ofItem<K extends GroupKind>(kind: K, userId: string, mediaItemId: string): Promise<Array<GroupsV1[K]>> {
    const item = await this.knownItem(userId, mediaItemId);
    if (!item) return [];
    const { placeIds, thingIds } = groupsOf(item);
    return (await this.repo.groupsByIds(kind, userId, kind === 'place' ? placeIds : thingIds)).map((doc) =>
      PRESENT[kind](doc),
    );
  }

  /** Explore's record of the item; null when the item is the user's but not processed yet; not found when it is not theirs. */
  private async knownItem(userId: string, mediaItemId: string) {
    const item = await this.repo.item(userId, mediaItemId);
    if (item) return item;
    if (!(await this.media.stateOf(userId, mediaItemId))) throw mediaItemNotFound();
    return null;
  }

  // ---- what happens elsewhere: results, media changes, user deletion ---------------------------
  // Each is idempotent (events come at least once) and safe in any order against the others.

  /** A worker's result: file the item under its place and things, read its state, refresh what it joined and left. */
  async itemProcessed(result: MediaItemProcessedV1): Promise<void> {
    const { userId, mediaItemId } = result;
    if (await this.repo.isUserDeleted(userId)) return;
    const filing: Filing = {};
    if (result.place !== undefined)
      filing.placeId = result.place
        ? await this.repo.placeFor(userId, placeKey(result.place), placeFields(result.place))
        : null;
    if (result.things !== undefined)
      filing.thingIds = await Promise.all(
        uniqueLabels(result.things.map((t) => t.label)).map((label) =>
          this.repo.thingFor(userId, thingKey(label), label),
        ),
      );
    const filed = await this.repo.fileItem(userId, mediaItemId, new Date(result.metadata.creationTime), filing);
    // Read after filing: a change the media service makes from now on has its own event, which finds the item filed.
    const state = await this.media.stateOf(userId, mediaItemId);
    if (state) await this.repo.applyState(userId, mediaItemId, state, state.version);
    else await this.repo.retireItem(userId, mediaItemId);
    await this.refresh(userId, filed.refresh);
    if (state) await this.repo.settleFiling(userId, mediaItemId, filed.filing);
    else await this.repo.deleteItem(userId, mediaItemId);
    // The user was deleted while this ran: whatever it created goes too.
    if (await this.repo.isUserDeleted(userId)) await this.repo.deleteUserData(userId);
  }

  /** The item was updated, trashed or restored: take its current state from the media service. */
  async itemChanged(userId: string, mediaItemId: string): Promise<void> {
    const state = await this.media.stateOf(userId, mediaItemId);
    if (!state) return this.itemPurged(userId, mediaItemId);
    const item = await this.repo.applyState(userId, mediaItemId, state, state.version);
    if (item) await this.refresh(userId, groupsOf(item));
  }

  /** The item is gone for good: it leaves its place and things (which stay, maybe empty). */
  async itemPurged(userId: string, mediaItemId: string): Promise<void> {
    const item = await this.repo.retireItem(userId, mediaItemId);
    if (!item) return;
    const current = groupsOf(item);
    await this.refresh(userId, {
      placeIds: [...item.leftPlaceIds, ...current.placeIds],
      thingIds: [...item.leftThingIds, ...current.thingIds],
    });
    await this.repo.deleteItem(userId, mediaItemId);
  }

  /** Every place, thing and item of the user. */
  async userDeleted(userId: string): Promise<void> {
    await this.repo.markUserDeleted(userId);
    await this.repo.deleteUserData(userId);
  }

  private async refresh(userId: string, groups: GroupIds): Promise<void> {
    const each = (kind: GroupKind, ids: string[]) =>
      [...new Set(ids)].map((id) => this.repo.refreshSummary(kind, userId, id));
    await Promise.all([...each('place', groups.placeIds), ...each('thing', groups.thingIds)]);
  }
}

/** Labels once each (the first spelling of a key wins). */
function uniqueLabels(labels: string[]): string[] {
  const byKey = new Map<string, string>();
  for (const label of labels) if (!byKey.has(thingKey(label))) byKey.set(thingKey(label), label);
  return [...byKey.values()];
}
