import { searchMediaItemsRpc } from '@trove/proto-events';
import { rpcHandler } from '@trove/kit';
import type { ServeOptions } from '@trove/kit';
import type { SearchService } from './service';

/** Search's RPC: the gateway calls it with the authenticated user's id. */
export function searchHandlers(search: SearchService): ServeOptions['handlers'] {
  return [
    rpcHandler(searchMediaItemsRpc, async ({ userId, q, page, limit }) => ({
      mediaItemIds: await search.search(userId, q, page, limit),
    })),
  ];
}
