import { getMediaItemsRpc, searchMediaItemsRpc } from '@trove/proto-events';
import type { Bus } from '@trove/kit';
import type { ContentUrls } from '../content/content-urls';
import type { OperationRouter } from '../openapi/operation-router';
import { presenter } from '../present';
import { userAnswer } from './user-calls';

export interface SearchRouteDeps {
  bus: Bus;
  contentUrls: ContentUrls;
}

/**
 * Search, for the token's user: the explore service answers the ids of a page of matches (best
 * first, scoped to the user), the media service the items, presented like every other media item.
 */
export function searchRoutes(routes: OperationRouter, deps: SearchRouteDeps): void {
  routes.handle(
    'searchMediaItems',
    userAnswer(async (req, userId) => {
      const { q, page, limit } = req.query;
      const { mediaItemIds } = await deps.bus.request(searchMediaItemsRpc, { userId, q, page, limit });
      const items =
        mediaItemIds.length === 0
          ? []
          : (await deps.bus.request(getMediaItemsRpc, { userId, ids: mediaItemIds })).items;
      return presenter(req, deps.contentUrls).mediaItems(items);
    }),
  );
}
