import type { Router } from 'express';
import {
  getMediaItemsRpc,
  getPersonRpc,
  getPlaceRpc,
  getThingRpc,
  listMediaItemPeopleRpc,
  listMediaItemPlacesRpc,
  listMediaItemThingsRpc,
  listPeopleRpc,
  listPersonMediaItemsRpc,
  listPlaceMediaItemsRpc,
  listPlacesRpc,
  listThingMediaItemsRpc,
  listThingsRpc,
  locateFaceRpc,
  mergePeopleRpc,
  updatePersonRpc,
} from '@trove/proto-events';
import type { MediaItemV1 } from '@trove/proto-events';
import type { BlobStore, Bus, Logger } from '@trove/kit';
import type { ContentUrls, RequestOrigin } from '../content/content-urls';
import { serveBlob } from '../content/serve-blob';
import { OperationRouter } from '../openapi/operation-router';
import type { OperationHandler } from '../openapi/operation-router';
import { schemaFields } from '../openapi/schema-fields';
import { presenter } from '../present';
import type { MediaItemsById } from '../present';
import { requireUser, requireUserOrSignature } from '../security/authenticate';

export interface ExploreRouteDeps {
  bus: Bus;
  contentUrls: ContentUrls;
  /** Where face thumbnails are read from. */
  blobs: BlobStore;
  log: Logger;
}

/** Face thumbnails are regenerated with the item's processing (their ETag changes then). */
const CACHE_FACE = 'private, max-age=3600';

/**
 * Places, things and people, for the token's user (the explore service scopes every call to it:
 * another user's place answers 404 `place not found`, thing `thing not found`, person `person not
 * found`, item `mediaitem not found`).
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
    (contract: typeof listPlaceMediaItemsRpc): OperationHandler<'listPlaceMediaItems' | 'listThingMediaItems' | 'listPersonMediaItems'> =>
    async (req, res) => {
      const { userId } = requireUser(res);
      const { mediaItemIds } = await deps.bus.request(contract, { userId, id: req.params.id, ...req.query });
      res.json(present(req).mediaItems(await mediaItems(userId, mediaItemIds)));
    };
  routes.handle('listPlaceMediaItems', groupItems(listPlaceMediaItemsRpc));
  routes.handle('listThingMediaItems', groupItems(listThingMediaItemsRpc));

  // ---- people ----------------------------------------------------------------------------------
  routes.handle('listPeople', async (req, res) => {
    const { userId } = requireUser(res);
    const { people } = await deps.bus.request(listPeopleRpc, { userId, ...req.query });
    res.json(present(req).people(people, await covers(userId, people)));
  });

  routes.handle('getPerson', async (req, res) => {
    const { userId } = requireUser(res);
    const person = await deps.bus.request(getPersonRpc, { userId, id: req.params.id });
    res.json(present(req).person(person, await covers(userId, [person])));
  });

  routes.handle('listMediaItemPeople', async (req, res) => {
    const { userId } = requireUser(res);
    const { people } = await deps.bus.request(listMediaItemPeopleRpc, { userId, mediaItemId: req.params.id });
    res.json(present(req).people(people, await covers(userId, people)));
  });

  routes.handle('listPersonMediaItems', groupItems(listPersonMediaItemsRpc));

  routes.handle('updatePerson', async (req, res) => {
    const { userId } = requireUser(res);
    await deps.bus.request(updatePersonRpc, { userId, id: req.params.id, ...schemaFields('PeopleRequest', req.body) });
    res.status(204).end();
  });

  routes.handle('mergePeople', async (req, res) => {
    const { userId } = requireUser(res);
    await deps.bus.request(mergePeopleRpc, { userId, id: req.params.id, people: req.body.people });
    res.status(204).end();
  });

  routes.handle('getFaceThumbnail', async (req, res) => {
    // A bearer token scopes the lookup to its user; a verified signed URL names the face itself.
    const user = requireUserOrSignature(res);
    const location = await deps.bus.request(locateFaceRpc, { ...(user ? { userId: user.userId } : {}), id: req.params.id });
    await serveBlob(req, res, deps.blobs, deps.log, { key: location.key, contentType: location.contentType, cacheControl: CACHE_FACE, notFoundMessage: 'face not found' });
  });

  return routes.router;
}
