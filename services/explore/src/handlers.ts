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
import type { PlacesThingsService } from './places-things/service';
import { peopleHandlers } from './people/handlers';
import type { PeopleService } from './people/service';

/** Explore's RPCs: the gateway calls them with the authenticated user's id. */
export function exploreHandlers(explore: PlacesThingsService, people: PeopleService): ServeOptions['handlers'] {
  return [
    rpcHandler(listPlacesRpc, async ({ userId, page, limit }) => ({
      places: await explore.list('place', userId, page, limit),
    })),
    rpcHandler(getPlaceRpc, ({ userId, id }) => explore.get('place', userId, id)),
    rpcHandler(listPlaceMediaItemsRpc, async ({ userId, id, page, limit }) => ({
      mediaItemIds: await explore.itemIds('place', userId, id, page, limit),
    })),
    rpcHandler(listMediaItemPlacesRpc, async ({ userId, mediaItemId }) => ({
      places: await explore.ofItem('place', userId, mediaItemId),
    })),
    rpcHandler(listThingsRpc, async ({ userId, page, limit }) => ({
      things: await explore.list('thing', userId, page, limit),
    })),
    rpcHandler(getThingRpc, ({ userId, id }) => explore.get('thing', userId, id)),
    rpcHandler(listThingMediaItemsRpc, async ({ userId, id, page, limit }) => ({
      mediaItemIds: await explore.itemIds('thing', userId, id, page, limit),
    })),
    rpcHandler(listMediaItemThingsRpc, async ({ userId, mediaItemId }) => ({
      things: await explore.ofItem('thing', userId, mediaItemId),
    })),
    ...peopleHandlers(people),
  ];
}
