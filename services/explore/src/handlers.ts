import {
  getPlaceRpc,
  getThingRpc,
  listMediaItemPlacesRpc,
  listMediaItemThingsRpc,
  listPlaceMediaItemsRpc,
  listPlacesRpc,
  listThingMediaItemsRpc,
  listThingsRpc,
} from '@trove/proto-events';
import { rpcHandler } from '@trove/kit';
import type { ServeOptions } from '@trove/kit';
import type { Explore } from './explore/service';

/** Explore's RPCs: the gateway calls them with the authenticated user's id. */
export function exploreHandlers(explore: Explore): ServeOptions['handlers'] {
  return [
    rpcHandler(listPlacesRpc, async ({ userId, page, limit }) => ({ places: await explore.listPlaces(userId, page, limit) })),
    rpcHandler(getPlaceRpc, ({ userId, id }) => explore.getPlace(userId, id)),
    rpcHandler(listPlaceMediaItemsRpc, async ({ userId, id, page, limit }) => ({ mediaItemIds: await explore.placeItemIds(userId, id, page, limit) })),
    rpcHandler(listMediaItemPlacesRpc, async ({ userId, mediaItemId }) => ({ places: await explore.placesOf(userId, mediaItemId) })),
    rpcHandler(listThingsRpc, async ({ userId, page, limit }) => ({ things: await explore.listThings(userId, page, limit) })),
    rpcHandler(getThingRpc, ({ userId, id }) => explore.getThing(userId, id)),
    rpcHandler(listThingMediaItemsRpc, async ({ userId, id, page, limit }) => ({ mediaItemIds: await explore.thingItemIds(userId, id, page, limit) })),
    rpcHandler(listMediaItemThingsRpc, async ({ userId, mediaItemId }) => ({ things: await explore.thingsOf(userId, mediaItemId) })),
  ];
}
