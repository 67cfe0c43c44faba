import { mediaItemV1 } from '@trove/kit/testing';
import type { MediaItemV1 } from '@trove/proto-events';
import type { MediaDirectory } from './media';

/** An in-memory media service: `getMany` with the same rules as `trove.v1.media.getMany`. */
export class FakeMedia implements MediaDirectory {
  readonly items = new Map<string, MediaItemV1>();
  calls = 0;

  add(userId: string, fields: Partial<MediaItemV1> = {}): MediaItemV1 {
    const item = mediaItemV1(userId, fields);
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
