import { randomUUID } from 'node:crypto';
import { emptyMediaMetadata } from '@trove/proto-events';
import type { MediaItemV1 } from '@trove/proto-events';

/**
 * A media item as the media service answers it: a READY photo of the user's with its preview and
 * thumbnail, created now, `fields` over those defaults.
 */
export function mediaItemV1(userId: string, fields: Partial<MediaItemV1> = {}): MediaItemV1 {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    userId,
    filename: 'photo.jpg',
    description: null,
    mimeType: 'image/jpeg',
    size: 1234,
    sha256: 'a'.repeat(64),
    placeholder: null,
    favourite: false,
    shared: false,
    hidden: false,
    deleted: false,
    deletedAt: null,
    status: 'READY',
    failureReason: null,
    mediaItemType: 'photo',
    mediaItemCategory: 'default',
    metadata: { ...emptyMediaMetadata(now), width: 4, height: 3 },
    variants: { preview: true, thumbnail: true, playback: false },
    createdAt: now,
    updatedAt: now,
    ...fields,
  };
}
