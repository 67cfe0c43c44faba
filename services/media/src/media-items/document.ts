import { MEDIA_METADATA_FIELDS, emptyMediaMetadata } from '@trove/proto-events';
import type { CreateMediaItemRequestV1, MediaItemProcessedV1, MediaItemV1, MediaMetadataV1 } from '@trove/proto-events';
import { defineCollection } from '@trove/kit';
import type { BaseDoc } from '@trove/kit';

export type MediaStatus = MediaItemV1['status'];
export type MediaCategory = MediaItemV1['mediaItemCategory'];
export type MediaType = MediaItemV1['mediaItemType'];

/** Blob keys of the derived files, null until the worker made them. */
export interface VariantKeys {
  preview: string | null;
  thumbnail: string | null;
  /** A web-playable transcode of a video whose original is not one. */
  playback: string | null;
}

/** A position the user gave an item. */
export interface UserLocation {
  latitude: number;
  longitude: number;
}

/** When an item was taken, in the forms its queries need (see `creationParts`). */
export interface CreationParts {
  /** The same instant as the item's creation time (the user's, else the file's), as a Date: list views sort on it. */
  creationAt: Date;
  /** MMDD and year of the camera's local day: "years ago" filters on them. */
  creationMonthDay: string;
  creationYear: number;
}

/**
 * One media item as stored in `media_items`. `metadata` is the worker's MediaMetadataV1 as it came
 * (before processing: nothing known, the upload time as creation time). The user's creation time
 * and position sit beside it (`userCreationTime`, `userLocation`) and win in every answer
 * (`shownMetadata`); processing again re-sets `metadata` only. The creation parts are derived from
 * the creation time that wins, kept as written (the camera's local time with its offset, when known).
 */
export interface MediaDoc extends BaseDoc, CreationParts {
  userId: string;
  filename: string;
  description: string | null;
  mimeType: string;
  size: number;
  sha256: string;
  originalKey: string;
  placeholder: string | null;
  favourite: boolean;
  hidden: boolean;
  deleted: boolean;
  deletedAt: Date | null;
  status: MediaStatus;
  failureReason: string | null;
  mediaItemType: MediaType;
  mediaItemCategory: MediaCategory;
  metadata: MediaMetadataV1;
  variants: VariantKeys;
  createdAt: Date;
  updatedAt: Date;
  /** A Live Photo's still: its motion part (see live-photos.ts). Absent or null otherwise. */
  motionMediaItemId?: string | null;
  /** The motion part of a Live Photo: its still. Lists leave such a video out; it follows the still's flags. */
  stillMediaItemId?: string | null;
  /**
   * Set while a purge sweeper has claimed the item (several media replicas may sweep at once); the epoch
   * (`EMPTYING_CLAIM`) once its owner emptied the trash, until the emptier claims it.
   */
  purgingAt?: Date;
  /** How often the reconciler queued the item's processing again (it was PROCESSING for too long). */
  requeues?: number;
  /** The worker components its upload asked for (the owner's features); a requeue asks for the same. Absent: all. */
  components?: string[];
  /** When the user says it was taken (ISO 8601 with offset): wins over `metadata.creationTime`. Absent or null: the file's. */
  userCreationTime?: string | null;
  /** Where the user says it was taken: wins over the file's position. Absent or null: the file's. */
  userLocation?: UserLocation | null;
}

/**
 * A document written before the metadata was one object: its fields (creationTime, width, …) sit
 * at the top level. Such documents are read as they are (`fromStored`) and never rewritten for it.
 */
export type LegacyMediaDoc = Omit<MediaDoc, 'metadata'> &
  Partial<Record<keyof MediaMetadataV1, unknown>> & { metadata?: undefined };

/** What `media_items` may hold. */
export type StoredMediaDoc = MediaDoc | LegacyMediaDoc;

/** The media items (`media_items`) and their indexes. */
export const MEDIA_ITEMS = defineCollection<StoredMediaDoc>(
  'media_items',
  [
    // One item per content per user: the upload's duplicate check, race-free.
    { fields: { userId: 1, sha256: 1 }, unique: true },
    // The list views: a user's items by flags, newest first. Every condition of a view is in it (Live Photo motion
    // parts left out by `stillMediaItemId: null`), so the embedded store pages through it without reading the
    // items before the page: the library and the hidden items; a cursor's `creationAt` range reads from its place on.
    // The timeline counts a month of a list as a `creationAt` range of the list's index, from the key rows alone.
    { fields: { userId: 1, stillMediaItemId: 1, deleted: 1, hidden: 1, creationAt: -1 } },
    // The same for what a list filters on beside its view, so that a page reads about a page of items at any library
    // size (not every item until enough match): favourites, a type (`type=video`), a status, years ago (a day of
    // every year, newest first: the year's bound left to the matcher, it drops this year's items only).
    { fields: { userId: 1, stillMediaItemId: 1, deleted: 1, hidden: 1, favourite: 1, creationAt: -1 } },
    { fields: { userId: 1, stillMediaItemId: 1, deleted: 1, hidden: 1, mediaItemType: 1, creationAt: -1 } },
    { fields: { userId: 1, stillMediaItemId: 1, deleted: 1, hidden: 1, status: 1, creationAt: -1 } },
    { fields: { userId: 1, stillMediaItemId: 1, deleted: 1, hidden: 1, creationMonthDay: 1, creationAt: -1 } },
    // The trash, by deletion time.
    { fields: { userId: 1, stillMediaItemId: 1, deleted: 1, deletedAt: -1, creationAt: -1 } },
    // A category has none: `default` (nearly every item) pages through the view's index, `live` is not a key
    // (a motion part set), and the others are rare filters of the API only.
    // A job's walk over a user's items.
    { fields: { userId: 1, createdAt: 1 } },
    // The purge sweeper: expired trash of every user.
    { fields: { deleted: 1, deletedAt: 1 } },
    // The emptier: emptied trash, and purges a replica left half-done (a claim nobody holds), of every user.
    { fields: { deleted: 1, purgingAt: 1 } },
    // The reconciler (items stuck in PROCESSING, at every start) and the metrics' count by status, of every user.
    { fields: { status: 1, updatedAt: 1 } },
    // Live Photos: the other part of a user's still or video.
    { fields: { userId: 1, 'metadata.contentIdentifier': 1 } },
  ],
  // A month field the timeline once counted by: months are `creationAt` ranges of the list indexes now.
  { retired: [{ fields: { creationMonth: 1 } }] },
);

/** A stored document in today's shape: legacy top-level metadata fields are gathered into `metadata`. */
export function fromStored(stored: StoredMediaDoc): MediaDoc {
  if (stored.metadata) return stored;
  const legacy: Record<string, unknown> = { ...stored };
  const metadata: Record<string, unknown> = { ...emptyMediaMetadata(stored.creationAt.toISOString()) };
  for (const field of MEDIA_METADATA_FIELDS) {
    if (legacy[field] !== undefined) metadata[field] = legacy[field];
    delete legacy[field];
  }
  return { ...(legacy as Omit<MediaDoc, 'metadata'>), metadata: metadata as unknown as MediaMetadataV1 };
}

/** The calendar parts of an ISO 8601 date-time, as written (the camera's local day when it has an offset). */
export function creationParts(iso: string): CreationParts | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T/.exec(iso);
  const at = new Date(iso);
  if (!m || Number.isNaN(at.getTime())) return null;
  return {
    creationAt: at,
    creationMonthDay: `${m[2]}${m[3]}`,
    creationYear: Number(m[1]),
  };
}

/** The UTC month (`YYYY-MM`) of an instant, as the timeline counts it. */
export function creationMonthOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** A just-uploaded original: PROCESSING, nothing known yet, taken (as far as we know) when it was uploaded. */
export function newMediaDoc(req: CreateMediaItemRequestV1, now: Date): MediaDoc {
  return {
    _id: req.id,
    userId: req.userId,
    filename: req.filename,
    description: null,
    mimeType: req.mimeType,
    size: req.size,
    sha256: req.sha256,
    originalKey: req.originalKey,
    placeholder: null,
    favourite: false,
    hidden: false,
    deleted: false,
    deletedAt: null,
    status: 'PROCESSING',
    failureReason: null,
    mediaItemType: req.mediaItemType,
    mediaItemCategory: 'default',
    metadata: emptyMediaMetadata(now.toISOString()),
    ...creationParts(now.toISOString())!,
    variants: { preview: null, thumbnail: null, playback: null },
    createdAt: now,
    updatedAt: now,
    ...(req.components ? { components: req.components } : {}),
  };
}

/** The item's metadata as answered: the file's, with the user's creation time and position over it. */
export function shownMetadata(doc: Pick<MediaDoc, 'metadata' | 'userCreationTime' | 'userLocation'>): MediaMetadataV1 {
  const { userCreationTime, userLocation } = doc;
  if (!userCreationTime && !userLocation) return doc.metadata;
  return {
    ...doc.metadata,
    ...(userCreationTime ? { creationTime: userCreationTime } : {}),
    ...(userLocation ? { latitude: userLocation.latitude, longitude: userLocation.longitude } : {}),
  };
}

/** The creation parts of the item's winning creation time: the user's, else the file's (`fileCreationTime`). */
export function shownCreationParts(
  userCreationTime: string | null | undefined,
  fileCreationTime: string,
): CreationParts {
  return (userCreationTime && creationParts(userCreationTime)) || creationParts(fileCreationTime)!;
}

export function toMediaItemV1(doc: MediaDoc): MediaItemV1 {
  return {
    id: doc._id,
    userId: doc.userId,
    filename: doc.filename,
    description: doc.description,
    mimeType: doc.mimeType,
    size: doc.size,
    sha256: doc.sha256,
    placeholder: doc.placeholder,
    favourite: doc.favourite,
    // Albums (and with them sharing) are the library service's: it overlays this flag.
    shared: false,
    hidden: doc.hidden,
    deleted: doc.deleted,
    deletedAt: doc.deletedAt ? doc.deletedAt.toISOString() : null,
    status: doc.status,
    failureReason: doc.failureReason,
    mediaItemType: doc.mediaItemType,
    mediaItemCategory: shownCategory(doc),
    motionMediaItemId: doc.motionMediaItemId ?? null,
    metadata: shownMetadata(doc),
    variants: {
      preview: !!doc.variants.preview,
      thumbnail: !!doc.variants.thumbnail,
      playback: !!doc.variants.playback,
    },
    createdAt: doc.createdAt.toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
  };
}

/**
 * `live` exactly when the still is paired with its motion part; otherwise the worker's category.
 * Workers before the pairing filed a lone Live Photo still as `live`: such an item shows `default`.
 */
export function shownCategory(doc: Pick<MediaDoc, 'mediaItemCategory' | 'motionMediaItemId'>): MediaCategory {
  if (doc.motionMediaItemId) return 'live';
  return doc.mediaItemCategory === 'live' ? 'default' : doc.mediaItemCategory;
}

/** What a worker's result sets on an item. */
export type ProcessedFields = Pick<
  MediaDoc,
  'mimeType' | 'status' | 'failureReason' | 'mediaItemCategory' | 'placeholder' | 'variants' | 'metadata'
> &
  CreationParts;

/**
 * The fields a result sets, by the components it carries (all when it names none): `metadata` the
 * metadata, creation time, type and category; `previews` the variants and placeholder. A result
 * of neither (a job's places or things) sets nothing here: explore files it. The creation parts
 * follow the user's creation time when the item has one. Applying the same result twice changes nothing.
 */
export function appliedFields(
  result: MediaItemProcessedV1,
  doc: Pick<MediaDoc, 'createdAt' | 'userCreationTime'>,
): Partial<ProcessedFields> {
  const all = processedFields(result, doc.createdAt);
  // The user's creation time keeps ordering the item: the file's date goes into `metadata` only.
  if (doc.userCreationTime) Object.assign(all, shownCreationParts(doc.userCreationTime, all.metadata.creationTime));
  if (!result.components) return all;
  const { status, failureReason, mimeType, mediaItemCategory, placeholder, variants, metadata, ...creation } = all;
  const withMetadata = result.components.includes('metadata');
  const withPreviews = result.components.includes('previews');
  if (!withMetadata && !withPreviews) return {};
  return {
    status,
    failureReason,
    ...(withMetadata ? { mimeType, mediaItemCategory, metadata, ...creation } : {}),
    ...(withPreviews ? { placeholder, variants } : {}),
  };
}

export function processedFields(result: MediaItemProcessedV1, fallbackCreation: Date): ProcessedFields {
  // The schema's date-time admits forms the calendar parts cannot read (a lower-case "t"): then the upload time.
  const creationTime = creationParts(result.metadata.creationTime)
    ? result.metadata.creationTime
    : fallbackCreation.toISOString();
  return {
    mimeType: result.mimeType,
    status: 'READY',
    failureReason: null,
    mediaItemCategory: result.category,
    placeholder: result.placeholder,
    variants: {
      preview: result.variants.preview,
      thumbnail: result.variants.thumbnail,
      playback: result.variants.playback,
    },
    metadata: { ...result.metadata, creationTime },
    ...creationParts(creationTime)!,
  };
}

/** True when every field of `fields` already has that value in `doc`. */
export function alreadyApplied(doc: MediaDoc, fields: Partial<MediaDoc>): boolean {
  return Object.entries(fields).every(([key, value]) =>
    sameValue((doc as unknown as Record<string, unknown>)[key], value),
  );
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date)
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return (
      ka.length === kb.length &&
      ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
    );
  }
  return a === b || (a === undefined && b === null) || (a === null && b === undefined);
}
