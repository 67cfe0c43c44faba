import { getMediaItemsRpc } from '@trove/proto-events';
import type { MediaItemV1 } from '@trove/proto-events';
import type { Bus } from '@trove/kit';

/** What the library needs from the media service: it never reads the media store itself. */
export interface MediaDirectory {
  /** The user's items among `ids`, in the order asked; unknown ids and other users' ids are left out. */
  getMany(userId: string, ids: string[]): Promise<MediaItemV1[]>;
}

/** Largest batch `trove.v1.media.getMany` takes (its schema's maxItems). */
export const GET_MANY_MAX = 1000;

/** The media service through `trove.v1.media.getMany`, in batches it accepts. */
export function mediaOverBus(bus: Bus): MediaDirectory {
  return {
    async getMany(userId, ids) {
      const out: MediaItemV1[] = [];
      for (let i = 0; i < ids.length; i += GET_MANY_MAX) {
        const { items } = await bus.request(getMediaItemsRpc, { userId, ids: ids.slice(i, i + GET_MANY_MAX) });
        out.push(...items);
      }
      return out;
    },
  };
}
