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
import type { MediaItemIdsV1, MediaItemV1 } from '@trove/proto-events';
import type { BlobStore, Bus, Logger } from '@trove/kit';
import type { ContentUrls, RequestOrigin } from '../content/content-urls';
import { serveBlob } from '../content/serve-blob';
import type { OperationRouter } from '../openapi/operation-router';
import { schemaFields } from '../openapi/schema-fields';
import { presenter } from '../present';
import type { MediaItemsById } from '../present';
import { requireUserOrSignature } from '../security/authenticate';
import { userAnswer, userCommand } from './user-calls';

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
    show: (p: ReturnType<typeof present>, groups: G[], covers: MediaItemsById) => Shown[],
  ) => show(present(req), groups, await covers(userId, groups));
  /** A page of a group's items, presented. */
  const items = async (req: RequestOrigin, userId: string, page: MediaItemIdsV1) =>
    present(req).mediaItems(await mediaItems(userId, page.mediaItemIds));

  routes.handle(
    'listPlaces',
    userAnswer(async (req, userId) =>
      shown(req, userId, (await deps.bus.request(listPlacesRpc, { userId, ...req.query })).places, (p, g, c) =>
        p.places(g, c),
      ),
    ),
  );
  routes.handle(
    'getPlace',
    userAnswer(
      async (req, userId) =>
        (
          await shown(req, userId, [await deps.bus.request(getPlaceRpc, { userId, id: req.params.id })], (p, g, c) =>
            p.places(g, c),
          )
        )[0],
    ),
  );
  routes.handle(
    'listMediaItemPlaces',
    userAnswer(async (req, userId) =>
      shown(
        req,
        userId,
        (await deps.bus.request(listMediaItemPlacesRpc, { userId, mediaItemId: req.params.id })).places,
        (p, g, c) => p.places(g, c),
      ),
    ),
  );
  routes.handle(
    'listPlaceMediaItems',
    userAnswer(async (req, userId) =>
      items(req, userId, await deps.bus.request(listPlaceMediaItemsRpc, { userId, id: req.params.id, ...req.query })),
    ),
  );

  routes.handle(
    'listThings',
    userAnswer(async (req, userId) =>
      shown(req, userId, (await deps.bus.request(listThingsRpc, { userId, ...req.query })).things, (p, g, c) =>
        p.things(g, c),
      ),
    ),
  );
  routes.handle(
    'getThing',
    userAnswer(
      async (req, userId) =>
        (
          await shown(req, userId, [await deps.bus.request(getThingRpc, { userId, id: req.params.id })], (p, g, c) =>
            p.things(g, c),
          )
        )[0],
    ),
  );
  routes.handle(
    'listMediaItemThings',
    userAnswer(async (req, userId) =>
      shown(
        req,
        userId,
        (await deps.bus.request(listMediaItemThingsRpc, { userId, mediaItemId: req.params.id })).things,
        (p, g, c) => p.things(g, c),
      ),
    ),
  );
  routes.handle(
    'listThingMediaItems',
    userAnswer(async (req, userId) =>
      items(req, userId, await deps.bus.request(listThingMediaItemsRpc, { userId, id: req.params.id, ...req.query })),
    ),
  );

  routes.handle(
    'listPeople',
    userAnswer(async (req, userId) =>
      shown(req, userId, (await deps.bus.request(listPeopleRpc, { userId, ...req.query })).people, (p, g, c) =>
        p.people(g, c),
      ),
    ),
  );
  routes.handle(
    'getPerson',
    userAnswer(
      async (req, userId) =>
        (
          await shown(req, userId, [await deps.bus.request(getPersonRpc, { userId, id: req.params.id })], (p, g, c) =>
            p.people(g, c),
          )
        )[0],
    ),
  );
  routes.handle(
    'listMediaItemPeople',
    userAnswer(async (req, userId) =>
      shown(
        req,
        userId,
        (await deps.bus.request(listMediaItemPeopleRpc, { userId, mediaItemId: req.params.id })).people,
        (p, g, c) => p.people(g, c),
      ),
    ),
  );
  routes.handle(
    'listPersonMediaItems',
    userAnswer(async (req, userId) =>
      items(req, userId, await deps.bus.request(listPersonMediaItemsRpc, { userId, id: req.params.id, ...req.query })),
    ),
  );
  routes.handle(
    'updatePerson',
    userCommand((req, userId) =>
      deps.bus.request(updatePersonRpc, { userId, id: req.params.id, ...schemaFields('PeopleRequest', req.body) }),
    ),
  );
  routes.handle(
    'mergePeople',
    userCommand((req, userId) =>
      deps.bus.request(mergePeopleRpc, { userId, id: req.params.id, people: req.body.people }),
    ),
  );

  // The user's corrections: a person's faces, each with its own thumbnail; a face given to a person, or taken from one.
  routes.handle(
    'listPersonFaces',
    userAnswer(async (req, userId) => {
      const { faces } = await deps.bus.request(listPersonFacesRpc, { userId, id: req.params.id, ...req.query });
      return present(req).faces(faces);
    }),
  );
  routes.handle(
    'assignPersonFace',
    userCommand((req, userId) =>
      deps.bus.request(assignFaceRpc, { userId, id: req.params.id, faceId: req.params.faceId }),
    ),
  );
  routes.handle(
    'removePersonFace',
    userCommand((req, userId) =>
      deps.bus.request(removePersonFaceRpc, { userId, id: req.params.id, faceId: req.params.faceId }),
    ),
  );

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
