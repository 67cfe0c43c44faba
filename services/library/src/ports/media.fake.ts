import { randomUUID } from 'node:crypto';
import { emptyMediaMetadata } from '@trove/proto-events';
import type { MediaItemV1 } from '@trove/proto-events';
import type { MediaDirectory } from './media';

/** A media item as the media service would answer it, with the fields tests care about. */
export function mediaItem(userId: string, fields: Partial<MediaItemV1> = {}): MediaItemV1 {
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

/** An in-memory media service: `getMany` with the same rules as `trove.v1.media.getMany`. */
export class FakeMedia implements MediaDirectory {
  readonly items = new Map<string, MediaItemV1>();
  calls = 0;

  add(userId: string, fields: Partial<MediaItemV1> = {}): MediaItemV1 {
    const item = mediaItem(userId, fields);
    this.items.set(item.id, item);
    return item;
  }

  set(id: string, fields: Partial<MediaItemV1>): void {
    const item = this.items.get(id);
    if (!item) throw new Error(`no item ${id}`);
    this.items.set(id, { ...item, ...fields });
  }

  purge(id: string): void {
    this.items.delete(id);
  }

  async getMany(userId: string, ids: string[]): Promise<MediaItemV1[]> {
    this.calls += 1;
    return ids.map((id) => this.items.get(id)).filter((i): i is MediaItemV1 => i !== undefined && i.userId === userId);
  }
}
