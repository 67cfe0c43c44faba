import {
  assignFaceRpc,
  getMediaItemsRpc,
  getPersonRpc,
  getPlaceRpc,
  getThingRpc,
  listMediaItemPeopleRpc,
  listMediaItemPlacesRpc,
  listMediaItemThingsRpc,
  listPeopleRpc,
  listPersonFacesRpc,
  listPersonMediaItemsRpc,
  listPlaceMediaItemsRpc,
  listPlacesRpc,
  listThingMediaItemsRpc,
  listThingsRpc,
  locateFaceRpc,
  mergePeopleRpc,
  removePersonFaceRpc,
  updatePersonRpc,
} from '@trove/proto-events';
import type {
  ExploreIdRequestV1,
  ListExploreMediaItemsRequestV1,
  ListExploreRequestV1,
  MediaItemExploreRequestV1,
  MediaItemIdsV1,
  MediaItemV1,
  PersonV1,
  PlaceV1,
  RpcContract,
  ThingV1,
} from '@trove/proto-events';
import type { components } from '@trove/openapi';
import type { Request } from 'express';
import type { BlobStore, Bus, Logger } from '@trove/kit';
import type { ContentUrls, RequestOrigin } from '../content/content-urls';
import { serveBlob } from '../content/serve-blob';
import type { OperationRouter } from '../openapi/operation-router';
import { schemaFields } from '../openapi/schema-fields';
import { presenter } from '../present';
import type { MediaItemsById } from '../present';
import { requireUserOrSignature } from '../security/authenticate';
import { itemCalls, userAnswer } from './user-calls';

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
/** How the presenter shows groups of one kind, with their cover items. */
type Show<G, Shown> = (p: ReturnType<typeof presenter>, groups: G[], covers: MediaItemsById) => Shown[];
type MediaItem = components['schemas']['MediaItem'];
/** A page of a list (the validator fills the defaults). */
type Paged = { page: number; limit: number };

/**
 * Places, things and people, for the token's user (the explore service scopes every call to it:
 * another user's place answers 404 `place not found`, thing `thing not found`, person `person not
 * found`, item `mediaitem not found`). Each kind has the same four calls: the user's groups, one of
 * them, an item's groups (each shown with its cover item), and a page of a group's items (explore
 * picks the ids, newest first and visible only).
 * Explore answers media item ids; the items themselves come from the media service in one call per
 * answer, and are presented like every other media item.
 */
export function exploreRoutes(routes: OperationRouter, deps: ExploreRouteDeps): void {
  const present = (req: RequestOrigin) => presenter(req, deps.contentUrls);
  const item = itemCalls(deps);

  /** The user's items among `ids`, in their order (the media service leaves out what it no longer has). */
  const mediaItems = async (userId: string, ids: string[]): Promise<MediaItemV1[]> =>
    ids.length === 0 ? [] : (await deps.bus.request(getMediaItemsRpc, { userId, ids: [...new Set(ids)] })).items;
  /** The cover items of some groups. */
  const covers = async (userId: string, groups: Covered[]): Promise<MediaItemsById> =>
    new Map(
      (
        await mediaItems(
          userId,
          groups.flatMap((g) => (g.coverMediaItemId ? [g.coverMediaItemId] : [])),
        )
      ).map((i) => [i.id, i]),
    );
  /** Groups shown with their cover items, by the presenter's `show` (places, things or people). */
  const shown = async <G extends Covered, Shown>(
    req: RequestOrigin,
    userId: string,
    groups: G[],
    show: Show<G, Shown>,
  ) => show(present(req), groups, await covers(userId, groups));

  /**
   * The four calls every kind has, on that kind's RPCs: its lists answer the groups under `field` (places,
   * things or people), which `show` presents.
   */
  const calls = <F extends string, G extends Covered, Shown>(field: F, show: Show<G, Shown>) => {
    type L = Record<F, G[]>;
    const groups = (list: L) => list[field];
    return {
      list: (rpc: RpcContract<ListExploreRequestV1, L>) =>
        userAnswer(async (req: Request<unknown, Shown[], unknown, Paged>, userId) =>
          shown(req, userId, groups(await deps.bus.request(rpc, { userId, ...req.query })), show),
        ),
      one: (rpc: RpcContract<ExploreIdRequestV1, G>) =>
        userAnswer(async (req: Request<{ id: string }, Shown>, userId) => {
          const [group] = await shown(req, userId, [await deps.bus.request(rpc, { userId, id: req.params.id })], show);
          return group!;
        }),
      ofItem: (rpc: RpcContract<MediaItemExploreRequestV1, L>) =>
        userAnswer(async (req: Request<{ id: string }, Shown[]>, userId) =>
          shown(req, userId, groups(await deps.bus.request(rpc, { userId, mediaItemId: req.params.id })), show),
        ),
      items: (rpc: RpcContract<ListExploreMediaItemsRequestV1, MediaItemIdsV1>) =>
        userAnswer(async (req: Request<{ id: string }, MediaItem[], unknown, Paged>, userId) => {
          const page = await deps.bus.request(rpc, { userId, id: req.params.id, ...req.query });
          return present(req).mediaItems(await mediaItems(userId, page.mediaItemIds));
        }),
    };
  };
  const places = calls('places', (p, g: PlaceV1[], c) => p.places(g, c));
  const things = calls('things', (p, g: ThingV1[], c) => p.things(g, c));
  const people = calls('people', (p, g: PersonV1[], c) => p.people(g, c));

  routes
    .handle('listPlaces', places.list(listPlacesRpc))
    .handle('getPlace', places.one(getPlaceRpc))
    .handle('listMediaItemPlaces', places.ofItem(listMediaItemPlacesRpc))
    .handle('listPlaceMediaItems', places.items(listPlaceMediaItemsRpc))
    .handle('listThings', things.list(listThingsRpc))
    .handle('getThing', things.one(getThingRpc))
    .handle('listMediaItemThings', things.ofItem(listMediaItemThingsRpc))
    .handle('listThingMediaItems', things.items(listThingMediaItemsRpc))
    .handle('listPeople', people.list(listPeopleRpc))
    .handle('getPerson', people.one(getPersonRpc))
    .handle('listMediaItemPeople', people.ofItem(listMediaItemPeopleRpc))
    .handle('listPersonMediaItems', people.items(listPersonMediaItemsRpc));
  routes
    .handle(
      'updatePerson',
      item.command(updatePersonRpc, (req) => schemaFields('PeopleRequest', req.body)),
    )
    .handle(
      'mergePeople',
      item.command(mergePeopleRpc, (req) => ({ people: req.body.people })),
    );

  // The user's corrections: a person's faces, each with its own thumbnail; a face given to a person, or taken from one.
  const faceInPath = (req: { params: { id: string; faceId: string } }) => ({ faceId: req.params.faceId });
  routes
    .handle(
      'listPersonFaces',
      item.answer(
        listPersonFacesRpc,
        (req, { faces }) => present(req).faces(faces),
        (req) => req.query,
      ),
    )
    .handle('assignPersonFace', item.command(assignFaceRpc, faceInPath))
    .handle('removePersonFace', item.command(removePersonFaceRpc, faceInPath));

  routes.handle('getFaceThumbnail', async (req, res) => {
    // A bearer token scopes the lookup to its user; a verified signed URL names the face itself.
    const user = requireUserOrSignature(res);
    const location = await deps.bus.request(locateFaceRpc, {
      ...(user ? { userId: user.userId } : {}),
      id: req.params.id,
    });
    await serveBlob(req, res, deps.blobs, deps.log, {
      key: location.key,
      contentType: location.contentType,
      cacheControl: CACHE_FACE,
      notFoundMessage: 'face not found',
    });
  });
}
