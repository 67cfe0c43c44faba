import type { Router } from 'express';
import { getMediaItemsRpc, getPlaceRpc, getThingRpc, listMediaItemPlacesRpc, listMediaItemThingsRpc, listPlaceMediaItemsRpc, listPlacesRpc, listThingMediaItemsRpc, listThingsRpc } from '@trove/proto-events';
import type { MediaItemV1 } from '@trove/proto-events';
import type { Bus } from '@trove/kit';
import type { ContentUrls, RequestOrigin } from '../content/content-urls';
import { OperationRouter } from '../openapi/operation-router';
import type { OperationHandler } from '../openapi/operation-router';
import { presenter } from '../present';
import type { MediaItemsById } from '../present';
import { requireUser } from '../security/authenticate';

export interface ExploreRouteDeps {
  bus: Bus;
  contentUrls: ContentUrls;
}

/**
 * Places and things, for the token's user (the explore service scopes every call to it: another
 * user's place answers 404 `place not found`, thing `thing not found`, item `mediaitem not found`).
 * Explore answers media item ids; the items themselves come from the media service in one call per
 * answer, and are presented like every other media item.
 */
export function exploreRoutes(deps: ExploreRouteDeps): Router {
  const routes = new OperationRouter();
  const present = (req: RequestOrigin) => presenter(req, deps.contentUrls);

  /** The user's items among `ids`, in their order (the media service leaves out what it no longer has). */
  const mediaItems = async (userId: string, ids: string[]): Promise<MediaItemV1[]> =>
    ids.length === 0 ? [] : (await deps.bus.request(getMediaItemsRpc, { userId, ids: [...new Set(ids)] })).items;
  /** The cover items of some places or things. */
  const covers = async (userId: string, groups: Array<{ coverMediaItemId: string | null }>): Promise<MediaItemsById> =>
    new Map((await mediaItems(userId, groups.flatMap((g) => (g.coverMediaItemId ? [g.coverMediaItemId] : [])))).map((i) => [i.id, i]));

  routes.handle('listPlaces', async (req, res) => {
    const { userId } = requireUser(res);
    const { places } = await deps.bus.request(listPlacesRpc, { userId, ...req.query });
    res.json(present(req).places(places, await covers(userId, places)));
  });

  routes.handle('getPlace', async (req, res) => {
    const { userId } = requireUser(res);
    const place = await deps.bus.request(getPlaceRpc, { userId, id: req.params.id });
    res.json(present(req).place(place, await covers(userId, [place])));
  });

  routes.handle('listMediaItemPlaces', async (req, res) => {
    const { userId } = requireUser(res);
    const { places } = await deps.bus.request(listMediaItemPlacesRpc, { userId, mediaItemId: req.params.id });
    res.json(present(req).places(places, await covers(userId, places)));
  });

  routes.handle('listThings', async (req, res) => {
    const { userId } = requireUser(res);
    const { things } = await deps.bus.request(listThingsRpc, { userId, ...req.query });
    res.json(present(req).things(things, await covers(userId, things)));
  });

  routes.handle('getThing', async (req, res) => {
    const { userId } = requireUser(res);
    const thing = await deps.bus.request(getThingRpc, { userId, id: req.params.id });
    res.json(present(req).thing(thing, await covers(userId, [thing])));
  });

  routes.handle('listMediaItemThings', async (req, res) => {
    const { userId } = requireUser(res);
    const { things } = await deps.bus.request(listMediaItemThingsRpc, { userId, mediaItemId: req.params.id });
    res.json(present(req).things(things, await covers(userId, things)));
  });

  /** A page of a place's or thing's items: explore picks the ids (newest first, visible only), the media service has the items. */
  const groupItems =
    (contract: typeof listPlaceMediaItemsRpc): OperationHandler<'listPlaceMediaItems' | 'listThingMediaItems'> =>
    async (req, res) => {
      const { userId } = requireUser(res);
      const { mediaItemIds } = await deps.bus.request(contract, { userId, id: req.params.id, ...req.query });
      res.json(present(req).mediaItems(await mediaItems(userId, mediaItemIds)));
    };
  routes.handle('listPlaceMediaItems', groupItems(listPlaceMediaItemsRpc));
  routes.handle('listThingMediaItems', groupItems(listThingMediaItemsRpc));

  return routes.router;
}
