import type { AlbumV1, MediaItemV1 } from '@trove/proto-events';
import { defineCollection } from '@trove/kit';

/** An album. `coverMediaItemId` is the cover the owner chose (null: none); the effective cover is derived. */
export interface AlbumDoc {
  _id: string;
  userId: string;
  name: string;
  /** Lower-cased name: `sort=name` is case-insensitive. */
  nameKey: string;
  description: string | null;
  shared: boolean;
  /** Visitors of the shared link see GPS positions (absent on albums from before the field: off). */
  shareLocation?: boolean;
  /** When the shared link stops answering (absent or null: never). */
  shareExpiresAt?: Date | null;
  /** Visitors get originals and the ZIP (absent on albums from before the field: on). */
  shareAllowDownload?: boolean;
  /** The link's password as a slow hash (share-password.ts); absent or null: no password. */
  sharePasswordHash?: string | null;
  /** A fresh UUID with every new password: unlock tokens and visitors' URLs are bound to it. */
  shareKey?: string | null;
  hidden: boolean;
  coverMediaItemId: string | null;
  /** Next membership sequence number: memberships keep the order they were added in. */
  nextSeq: number;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * One media item in one album. `trashed` mirrors the item's trash state from the media events;
 * `stateAt` is the time of the last trash/restore applied, so an older (late or replayed) event
 * never undoes a newer one.
 */
export interface MembershipDoc {
  _id: string;
  albumId: string;
  userId: string;
  mediaItemId: string;
  seq: number;
  addedAt: Date;
  trashed: boolean;
  stateAt: Date | null;
  /**
   * The item's hidden flag as the media service last answered it (absent on memberships from before
   * the field, until the start-up backfill sets it), and that answer's version (the item's
   * `updatedAt`): a shared view reads one page of its memberships instead of walking the album.
   */
  hidden?: boolean;
  hiddenVersion?: Date | null;
}

/** Another user an album is shared with (`userId`), and what they may do in it. */
export interface AlbumMemberDoc {
  /** `<albumId>:<userId>`: one membership per user and album. */
  _id: string;
  albumId: string;
  ownerId: string;
  userId: string;
  role: 'viewer' | 'contributor';
  addedAt: Date;
}

/** A purged media item: an add racing with its purge must not leave a membership behind. */
export interface PurgedDoc {
  _id: string;
  userId: string;
  mediaItemId: string;
  purgedAt: Date;
}

export const ALBUMS = defineCollection<AlbumDoc>('albums', [
  { fields: { userId: 1, nameKey: 1 } },
  { fields: { userId: 1, createdAt: 1 } },
  { fields: { userId: 1, updatedAt: 1 } },
  { fields: { userId: 1, coverMediaItemId: 1 } },
]);

export const MEMBERSHIPS = defineCollection<MembershipDoc>('album_items', [
  { fields: { albumId: 1, mediaItemId: 1 }, unique: true },
  { fields: { albumId: 1, trashed: 1, seq: 1 } },
  // What a visitor sees: one indexed range, counted or paged, never a walk of the whole album.
  { fields: { albumId: 1, trashed: 1, hidden: 1, seq: 1 } },
  { fields: { userId: 1, mediaItemId: 1 } },
]);

export const MEMBERS = defineCollection<AlbumMemberDoc>('album_members', [
  { fields: { albumId: 1, addedAt: 1 } },
  { fields: { userId: 1 } },
  { fields: { ownerId: 1 } },
]);

export const PURGED = defineCollection<PurgedDoc>('purged_media', [{ fields: { userId: 1, mediaItemId: 1 } }]);

/** The album as the contract shows it, with its count and effective cover (composed by the service). */
export function toAlbumV1(
  doc: AlbumDoc,
  count: number,
  cover: MediaItemV1 | null,
  role?: 'owner' | 'viewer' | 'contributor',
): AlbumV1 {
  return {
    ...(role ? { role } : {}),
    id: doc._id,
    userId: doc.userId,
    name: doc.name,
    description: doc.description,
    shared: doc.shared,
    shareLocation: doc.shareLocation === true,
    shareExpiresAt: doc.shareExpiresAt ? doc.shareExpiresAt.toISOString() : null,
    shareAllowDownload: doc.shareAllowDownload !== false,
    sharePasswordSet: Boolean(doc.sharePasswordHash),
    shareKey: doc.sharePasswordHash ? (doc.shareKey ?? null) : null,
    hidden: doc.hidden,
    coverMediaItemId: cover?.id ?? null,
    coverMediaItem: cover,
    mediaItemsCount: count,
    createdAt: doc.createdAt.toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
  };
}
