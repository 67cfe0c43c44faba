import { getMediaItemsRpc } from '@trove/proto-events';
import type { Bus } from '@trove/kit';

/** What search needs of an item from the media service: the words the user gave it, and whether it may be found. */
export interface MediaItemTexts {
  filename: string;
  description: string | null;
  hidden: boolean;
  trashed: boolean;
  /** The item's `updatedAt`: every change moves it, so a later read never loses to an earlier one. */
  version: Date;
}

/** What search asks the media service: it never reads the media store itself. */
export interface MediaTexts {
  /** The item's current texts and flags, or null when the user has no such item (never had it, or it was purged). */
  textsOf(userId: string, mediaItemId: string): Promise<MediaItemTexts | null>;
}

/** The media service through `trove.v1.media.getMany`. */
export function mediaTextsOverBus(bus: Bus): MediaTexts {
  return {
    async textsOf(userId, mediaItemId) {
      const [item] = (await bus.request(getMediaItemsRpc, { userId, ids: [mediaItemId] })).items;
      return item ? { filename: item.filename, description: item.description, hidden: item.hidden, trashed: item.deleted, version: new Date(item.updatedAt) } : null;
    },
  };
}
