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
import type {
  ExploreIdRequestV1,
  ListExploreMediaItemsRequestV1,
  ListPeopleRequestV1,
  MediaItemExploreRequestV1,
  MediaItemIdsV1,
  MediaItemV1,
  PersonListV1,
  PersonV1,
  PlaceListV1,
  PlaceV1,
  RpcContract,
  ThingListV1,
  ThingV1,
} from '@trove/proto-events';
import type { BlobStore, Bus, Logger } from '@trove/kit';
import type { components } from '@trove/openapi';
import type { ContentUrls, RequestOrigin } from '../content/content-urls';
import { serveBlob } from '../content/serve-blob';
import { OperationRouter } from '../openapi/operation-router';
import { schemaFields } from '../openapi/schema-fields';
import { presenter } from '../present';
import type { MediaItemsById } from '../present';
import { requireUserOrSignature } from '../security/authenticate';
import { userCalls } from './user-calls';

export interface ExploreRouteDeps {
  bus: Bus;
  contentUrls: ContentUrls;
  /** Where face thumbnails are read from. */
  blobs: BlobStore;
  log: Logger;
}

/** Face thumbnails are regenerated with the item's processing (their ETag changes then). */
const CACHE_FACE = 'private, max-age=3600';

/** Places, things and people: groups of media items, one of which is the cover. */
type Covered = { coverMediaItemId: string | null };
type Presenter = ReturnType<typeof presenter>;
type Shown = components['schemas'];

/** The operations of one kind of group, by what they do. */
interface GroupOperations {
  list: 'listPlaces' | 'listThings' | 'listPeople';
  get: 'getPlace' | 'getThing' | 'getPerson';
  ofItem: 'listMediaItemPlaces' | 'listMediaItemThings' | 'listMediaItemPeople';
  items: 'listPlaceMediaItems' | 'listThingMediaItems' | 'listPersonMediaItems';
}

/** One kind of group: its operations, the explore RPCs answering them, and how it is shown. Places, things and people differ in nothing else. */
interface GroupKind<G extends Covered, List> {
  operations: GroupOperations;
  contracts: {
    /** People's lists may ask for the hidden ones; the queries of places and things have no `hidden`. */
    list: RpcContract<ListPeopleRequestV1, List>;
    get: RpcContract<ExploreIdRequestV1, G>;
    ofItem: RpcContract<MediaItemExploreRequestV1, List>;
    items: RpcContract<ListExploreMediaItemsRequestV1, MediaItemIdsV1>;
  };
  /** The groups in a list answer. */
  groups(list: List): G[];
  /** Groups as the API shows them, their covers among `covers`. */
  all(present: Presenter, groups: G[], covers: MediaItemsById): Array<Shown['Place']> | Array<Shown['Thing']> | Array<Shown['Person']>;
}

const PLACES: GroupKind<PlaceV1, PlaceListV1> = {
  operations: { list: 'listPlaces', get: 'getPlace', ofItem: 'listMediaItemPlaces', items: 'listPlaceMediaItems' },
  contracts: { list: listPlacesRpc, get: getPlaceRpc, ofItem: listMediaItemPlacesRpc, items: listPlaceMediaItemsRpc },
  groups: (list) => list.places,
  all: (present, places, covers) => present.places(places, covers),
};

const THINGS: GroupKind<ThingV1, ThingListV1> = {
  operations: { list: 'listThings', get: 'getThing', ofItem: 'listMediaItemThings', items: 'listThingMediaItems' },
  contracts: { list: listThingsRpc, get: getThingRpc, ofItem: listMediaItemThingsRpc, items: listThingMediaItemsRpc },
  groups: (list) => list.things,
  all: (present, things, covers) => present.things(things, covers),
};

const PEOPLE: GroupKind<PersonV1, PersonListV1> = {
  operations: { list: 'listPeople', get: 'getPerson', ofItem: 'listMediaItemPeople', items: 'listPersonMediaItems' },
  contracts: { list: listPeopleRpc, get: getPersonRpc, ofItem: listMediaItemPeopleRpc, items: listPersonMediaItemsRpc },
  groups: (list) => list.people,
  all: (present, people, covers) => present.people(people, covers),
};

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
  /** The cover items of some groups. */
  const covers = async (userId: string, groups: Covered[]): Promise<MediaItemsById> =>
    new Map((await mediaItems(userId, groups.flatMap((g) => (g.coverMediaItemId ? [g.coverMediaItemId] : [])))).map((i) => [i.id, i]));

  const { answer, command } = userCalls(routes);
  /**
   * The routes of one kind of group: the user's groups, one of them, an item's groups (each shown
   * with its cover item), and a page of a group's items (explore picks the ids, newest first and
   * visible only; the media service has the items).
   */
  const groupRoutes = <G extends Covered, List>(kind: GroupKind<G, List>) => {
    /** Groups shown with their cover items. */
    const shown = async (req: RequestOrigin, userId: string, groups: G[]) => kind.all(present(req), groups, await covers(userId, groups));
    answer(kind.operations.list, async (req, userId) => shown(req, userId, kind.groups(await deps.bus.request(kind.contracts.list, { userId, ...req.query }))));
    answer(kind.operations.get, async (req, userId) => {
      const [group] = await shown(req, userId, [await deps.bus.request(kind.contracts.get, { userId, id: req.params.id })]);
      return group;
    });
    answer(kind.operations.ofItem, async (req, userId) => shown(req, userId, kind.groups(await deps.bus.request(kind.contracts.ofItem, { userId, mediaItemId: req.params.id }))));
    answer(kind.operations.items, async (req, userId) => {
      const { mediaItemIds } = await deps.bus.request(kind.contracts.items, { userId, id: req.params.id, ...req.query });
      return present(req).mediaItems(await mediaItems(userId, mediaItemIds));
    });
  };
  groupRoutes(PLACES);
  groupRoutes(THINGS);
  groupRoutes(PEOPLE);

  command('updatePerson', (req, userId) => deps.bus.request(updatePersonRpc, { userId, id: req.params.id, ...schemaFields('PeopleRequest', req.body) }));
  command('mergePeople', (req, userId) => deps.bus.request(mergePeopleRpc, { userId, id: req.params.id, people: req.body.people }));

  routes.handle('getFaceThumbnail', async (req, res) => {
    // A bearer token scopes the lookup to its user; a verified signed URL names the face itself.
    const user = requireUserOrSignature(res);
    const location = await deps.bus.request(locateFaceRpc, { ...(user ? { userId: user.userId } : {}), id: req.params.id });
    await serveBlob(req, res, deps.blobs, deps.log, { key: location.key, contentType: location.contentType, cacheControl: CACHE_FACE, notFoundMessage: 'face not found' });
  });

  return routes.router;
}
