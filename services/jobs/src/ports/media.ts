import { walkMediaItemsRpc } from '@trove/proto-events';
import type { MediaItemWalkV1, WalkMediaItemsRequestV1 } from '@trove/proto-events';
import type { Bus } from '@trove/kit';

/** What jobs need of the media service: a walk over a user's items. Jobs never read the media store. */
export interface MediaWalk {
  walk(req: WalkMediaItemsRequestV1): Promise<MediaItemWalkV1>;
}

export function mediaWalkOverBus(bus: Bus): MediaWalk {
  return { walk: (req) => bus.request(walkMediaItemsRpc, req) };
}
