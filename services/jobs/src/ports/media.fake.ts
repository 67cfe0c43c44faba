import { randomUUID } from 'node:crypto';
import type { MediaItemWalkV1, WalkMediaItemsRequestV1 } from '@trove/proto-events';
import type { WalkedItem } from '../jobs/document';
import type { MediaWalk } from './media';

/** The media service's walk over items held in memory, in the same (createdAt, id) order. */
export class FakeMediaWalk implements MediaWalk {
  readonly items: Array<WalkedItem & { userId: string }> = [];
  calls = 0;

  /** `count` items of the user, one second apart from `from`. */
  add(userId: string, count: number, from = new Date('2024-01-01T00:00:00Z')): WalkedItem[] {
    const added = Array.from({ length: count }, (_, i) => ({
      userId,
      id: randomUUID(),
      createdAt: new Date(from.getTime() + (this.items.length + i) * 1000).toISOString(),
      originalKey: `media/${userId}/${i}/original`,
      mimeType: 'image/jpeg',
      mediaItemType: 'photo' as const,
      filename: `${i}.jpg`,
    }));
    this.items.push(...added);
    return added.map(({ userId: _, ...item }) => item);
  }

  async walk({ userId, after, until, limit }: WalkMediaItemsRequestV1): Promise<MediaItemWalkV1> {
    this.calls += 1;
    const key = (i: { createdAt: string; id: string }) => `${new Date(i.createdAt).toISOString()}|${i.id}`;
    const mine = this.items
      .filter((i) => i.userId === userId && i.createdAt <= until)
      .sort((a, b) => (key(a) < key(b) ? -1 : 1));
    const rest = after ? mine.filter((i) => key(i) > key(after)) : mine;
    return { total: mine.length, items: rest.slice(0, limit).map(({ userId: _, ...item }) => item) };
  }
}
