import { getMediaItemsRpc } from '@trove/proto-events';
import type { Bus } from '@trove/kit';

/** What explore needs to know of an item's state: whether lists may show it (and search find it), its words, and as of when. */
export interface MediaItemState {
  filename: string;
  description: string | null;
  hidden: boolean;
  trashed: boolean;
  /** The item's `updatedAt`: every change of its flags moves it, so a later read never loses to an earlier one. */
  version: Date;
}

/** What explore asks the media service: it never reads the media store itself. */
export interface MediaStates {
  /** The item's current state, or null when the user has no such item (never had it, or it was purged). */
  stateOf(userId: string, mediaItemId: string): Promise<MediaItemState | null>;
}

/** The media service through `trove.v1.media.getMany`. */
export function mediaOverBus(bus: Bus): MediaStates {
  return {
    async stateOf(userId, mediaItemId) {
      const [item] = (await bus.request(getMediaItemsRpc, { userId, ids: [mediaItemId] })).items;
      return item
        ? {
            filename: item.filename,
            description: item.description,
            hidden: item.hidden,
            trashed: item.deleted,
            version: new Date(item.updatedAt),
          }
        : null;
    },
  };
}
