import type { MediaPlaceV1, PlaceV1, ThingV1 } from '@trove/proto-events';
import { defineCollection } from '@trove/kit';
import type { IndexSpec } from '@trove/kit';

export type GroupKind = 'place' | 'thing';

/**
 * One media item as explore knows it: when it was taken, where it is filed (its place and
 * things: its memberships) and whether lists may show it. `_id` is the media item's id.
 */
export interface ItemDoc {
  _id: string;
  userId: string;
  creationTime: Date;
  placeId: string | null;
  thingIds: string[];
  hidden: boolean;
  trashed: boolean;
  /** Neither hidden nor trashed: what counts, covers and item lists take. */
  visible: boolean;
  /** The media item's `updatedAt` when its state was read (null: not read yet); an older read never overwrites a newer one. */
  stateVersion: Date | null;
  /** Bumped by every filing: a filing only writes over the one it read. */
  filing: number;
  /**
   * Groups the item left in a filing whose summaries may still count it. They stay here until
   * refreshed, so the redelivery of an event whose handler died half-way refreshes them too.
   */
  leftPlaceIds: string[];
  leftThingIds: string[];
}

/** What places and things have in common: one per user and key, with their summary over the visible items. */
export interface GroupDoc {
  _id: string;
  userId: string;
  /** What makes two groups the same (per user, unique). */
  key: string;
  name: string;
  /** Lower-cased name: lists sort on it. */
  nameKey: string;
  /** The newest visible item, null when there is none. */
  coverMediaItemId: string | null;
  /** Visible items. */
  mediaItemsCount: number;
  /** Bumped by every summary refresh: a refresh only writes when no other one started after it. */
  revision: number;
  createdAt: Date;
  updatedAt: Date;
}

/** What a place is called and where it lies (the worker's naming of the first item filed there). */
export interface PlaceFields {
  name: string;
  town: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  countryCode: string | null;
  postcode: string | null;
  latitude: number | null;
  longitude: number | null;
}

export type PlaceDoc = GroupDoc & PlaceFields;
export type ThingDoc = GroupDoc;
/** The document of each kind of group. */
export interface GroupDocs {
  place: PlaceDoc;
  thing: ThingDoc;
}

/** Group ids by kind. */
export interface GroupIds {
  placeIds: string[];
  thingIds: string[];
}

/** An item's groups: its place (when it has one) and its things. */
export function groupsOf(item: Pick<ItemDoc, 'placeId' | 'thingIds'>): GroupIds {
  return { placeIds: item.placeId ? [item.placeId] : [], thingIds: item.thingIds };
}

/** What a place document keeps of the worker's naming. */
export function placeFields(place: MediaPlaceV1): PlaceFields {
  const { name, town, city, state, country, countryCode, postcode, latitude, longitude } = place;
  return { name, town, city, state, country, countryCode, postcode, latitude, longitude };
}

export function toPlaceV1(doc: PlaceDoc): PlaceV1 {
  return {
    id: doc._id,
    userId: doc.userId,
    name: doc.name,
    town: doc.town,
    city: doc.city,
    state: doc.state,
    country: doc.country,
    countryCode: doc.countryCode,
    postcode: doc.postcode,
    latitude: doc.latitude,
    longitude: doc.longitude,
    coverMediaItemId: doc.coverMediaItemId,
    mediaItemsCount: doc.mediaItemsCount,
  };
}

export function toThingV1(doc: ThingDoc): ThingV1 {
  return {
    id: doc._id,
    userId: doc.userId,
    name: doc.name,
    coverMediaItemId: doc.coverMediaItemId,
    mediaItemsCount: doc.mediaItemsCount,
  };
}

/** Explore's record of each item (lists by place or thing, newest first, visible only). */
export const ITEMS = defineCollection<ItemDoc>('explore_items', [
  { fields: { userId: 1, placeId: 1, visible: 1, creationTime: -1 } },
  { fields: { userId: 1, thingIds: 1, visible: 1, creationTime: -1 } },
]);
/** Places and things: one per user and key; listed most items first, then by name. */
const GROUP_INDEXES: IndexSpec[] = [
  { fields: { userId: 1, key: 1 }, unique: true },
  { fields: { userId: 1, mediaItemsCount: -1, nameKey: 1 } },
];
export const PLACES = defineCollection<PlaceDoc>('explore_places', GROUP_INDEXES);
export const THINGS = defineCollection<ThingDoc>('explore_things', GROUP_INDEXES);
/** Users deleted: events about them that arrive late are ignored. */
export const DELETED_USERS = defineCollection<{ _id: string; deletedAt: Date }>('explore_deleted_users', []);
