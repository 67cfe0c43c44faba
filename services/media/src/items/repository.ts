import type { MediaItemProcessedV1, MediaItemV1 } from '@trove/proto-events';
import type { BaseDoc, Collection, DocStore, Filter, SortSpec } from '@trove/kit';

export type MediaStatus = MediaItemV1['status'];
export type MediaCategory = MediaItemV1['mediaItemCategory'];
export type MediaType = MediaItemV1['mediaItemType'];
export type View = 'library' | 'favourites' | 'hidden' | 'trash';

/** Blob keys of the derived files, null until the worker made them. */
export interface VariantKeys {
  preview: string | null;
  thumbnail: string | null;
  /** A web-playable transcode of a video whose original is not one. */
  playback: string | null;
}

/**
 * One media item as stored in `media_items`. `creationTime` keeps the time as the camera wrote it
 * (local time with its offset, when known); `creationAt` is the same instant as a Date for sorting,
 * and `creationMonthDay`/`creationYear` its calendar day in the camera's local time, for "years ago".
 */
export interface MediaDoc extends BaseDoc {
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
  width: number | null;
  height: number | null;
  creationTime: string;
  creationAt: Date;
  creationMonthDay: string;
  creationYear: number;
  latitude: number | null;
  longitude: number | null;
  cameraMake: string | null;
  cameraModel: string | null;
  focalLength: string | null;
  apertureFNumber: string | null;
  isoEquivalent: string | null;
  exposureTime: string | null;
  fps: string | null;
  durationSeconds: number | null;
  variants: VariantKeys;
  createdAt: Date;
  updatedAt: Date;
  /** Set while a purge sweeper has claimed the item (several media replicas may sweep at once). */
  purgingAt?: Date;
}

export const COLLECTION = 'media_items';

/** Opens the collection and declares its indexes (idempotent). */
export async function openMediaItems(store: DocStore): Promise<Collection<MediaDoc>> {
  const items = store.collection<MediaDoc>(COLLECTION);
  // One item per content per user: the upload's duplicate check, race-free.
  await items.ensureIndex({ fields: { userId: 1, sha256: 1 }, unique: true });
  // The list views: a user's items by flags, newest first.
  await items.ensureIndex({ fields: { userId: 1, deleted: 1, hidden: 1, creationAt: -1 } });
  await items.ensureIndex({ fields: { userId: 1, creationMonthDay: 1 } });
  // The purge sweeper: expired trash of every user.
  await items.ensureIndex({ fields: { deleted: 1, deletedAt: 1 } });
  return items;
}

/** The calendar parts of an ISO 8601 date-time, as written (the camera's local day when it has an offset). */
export function creationParts(iso: string): { creationTime: string; creationAt: Date; creationMonthDay: string; creationYear: number } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T/.exec(iso);
  const at = new Date(iso);
  if (!m || Number.isNaN(at.getTime())) return null;
  return { creationTime: iso, creationAt: at, creationMonthDay: `${m[2]}${m[3]}`, creationYear: Number(m[1]) };
}

/** The filter of a list view. */
export function viewFilter(userId: string, view: View): Filter {
  switch (view) {
    case 'library':
      return { userId, deleted: false, hidden: false };
    case 'favourites':
      return { userId, deleted: false, hidden: false, favourite: true };
    case 'hidden':
      return { userId, deleted: false, hidden: true };
    case 'trash':
      return { userId, deleted: true };
  }
}

/** Newest first, ties broken by id so that pages never overlap; the trash by deletion time. */
export function viewSort(view: View): SortSpec {
  return view === 'trash' ? { deletedAt: -1, creationAt: -1, _id: -1 } : { creationAt: -1, _id: -1 };
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
    mediaItemCategory: doc.mediaItemCategory,
    width: doc.width,
    height: doc.height,
    creationTime: doc.creationTime,
    latitude: doc.latitude,
    longitude: doc.longitude,
    cameraMake: doc.cameraMake,
    cameraModel: doc.cameraModel,
    focalLength: doc.focalLength,
    apertureFNumber: doc.apertureFNumber,
    isoEquivalent: doc.isoEquivalent,
    exposureTime: doc.exposureTime,
    fps: doc.fps,
    durationSeconds: doc.durationSeconds,
    variants: { preview: !!doc.variants.preview, thumbnail: !!doc.variants.thumbnail, playback: !!doc.variants.playback },
    createdAt: doc.createdAt.toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
  };
}

/** The fields a worker's result sets, exactly as stored: applying the same result twice changes nothing. */
export function processedFields(result: MediaItemProcessedV1, fallbackCreation: Date): Partial<MediaDoc> {
  const m = result.metadata;
  const creation = creationParts(m.creationTime) ?? creationParts(fallbackCreation.toISOString());
  return {
    mimeType: result.mimeType,
    status: 'READY',
    failureReason: null,
    mediaItemCategory: result.category,
    placeholder: result.placeholder,
    variants: { preview: result.variants.preview, thumbnail: result.variants.thumbnail, playback: result.variants.playback },
    width: m.width,
    height: m.height,
    ...creation,
    latitude: m.latitude,
    longitude: m.longitude,
    cameraMake: m.cameraMake,
    cameraModel: m.cameraModel,
    focalLength: m.focalLength,
    apertureFNumber: m.apertureFNumber,
    isoEquivalent: m.isoEquivalent,
    exposureTime: m.exposureTime,
    fps: m.fps,
    durationSeconds: m.durationSeconds,
  };
}

/** True when every field of `fields` already has that value in `doc`. */
export function alreadyApplied(doc: MediaDoc, fields: Partial<MediaDoc>): boolean {
  return Object.entries(fields).every(([key, value]) => sameValue((doc as unknown as Record<string, unknown>)[key], value));
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b || (a === undefined && b === null) || (a === null && b === undefined);
}
