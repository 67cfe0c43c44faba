import {
  addAlbumMediaItemsRpc,
  createAlbumRpc,
  deleteAlbumRpc,
  getAlbumRpc,
  listAlbumMediaItemsRpc,
  listAlbumsRpc,
  listMediaItemAlbumsRpc,
  removeAlbumMediaItemsRpc,
  updateAlbumRpc,
} from '@trove/proto-events';
import type { BlobStore, Bus, Logger } from '@trove/kit';
import { ownerOriginals } from '../content/album-originals';
import { streamZip } from '../content/album-zip';
import type { ContentUrls, RequestOrigin } from '../content/content-urls';
import type { OperationRouter } from '../openapi/operation-router';
import { schemaFields } from '../openapi/schema-fields';
import { presenter } from '../present';
import { requireUser } from '../security/authenticate';
import { itemCalls, userAnswer } from './user-calls';

export interface AlbumRouteDeps {
  bus: Bus;
  contentUrls: ContentUrls;
  /** The originals a ZIP streams. */
  blobs: BlobStore;
  log: Logger;
}

/**
 * Albums and their items, for the token's user (the library service scopes every call to it:
 * another user's album answers 404 `album not found`, another user's item `mediaitem not found`).
 * Query, path and body were validated against openapi.yaml, which also filled the defaults.
 */
export function albumRoutes(routes: OperationRouter, deps: AlbumRouteDeps): void {
  const present = (req: RequestOrigin) => presenter(req, deps.contentUrls);
  const item = itemCalls(deps);
  // The items an album gains or loses: the body's `mediaItems`.
  const itemsInBody = (req: { body: { mediaItems: string[] } }) => ({ mediaItemIds: req.body.mediaItems });

  // `+name` is `name`: a leading `+` (sent as %2B) says ascending explicitly.
  const ascending = (sort: unknown) => (typeof sort === 'string' ? sort.replace(/^\+/, '') : sort);
  routes.handle(
    'listAlbums',
    userAnswer(async (req, userId) =>
      present(req).albums(
        (await deps.bus.request(listAlbumsRpc, { userId, ...req.query, sort: ascending(req.query.sort) })).albums,
      ),
    ),
  );
  routes.handle(
    'createAlbum',
    userAnswer(
      async (req, userId) =>
        present(req).album(
          await deps.bus.request(createAlbumRpc, { userId, ...schemaFields('AlbumRequest', req.body) }),
        ),
      201,
    ),
  );
  routes
    .handle(
      'getAlbum',
      item.answer(getAlbumRpc, (req, album) => present(req).album(album)),
    )
    .handle('updateAlbum', item.update(updateAlbumRpc, 'AlbumUpdateRequest'))
    .handle('deleteAlbum', item.command(deleteAlbumRpc))
    .handle(
      'listAlbumMediaItems',
      item.answer(
        listAlbumMediaItemsRpc,
        (req, { items }) => present(req).mediaItems(items),
        (req) => req.query,
      ),
    )
    .handle('addAlbumMediaItems', item.command(addAlbumMediaItemsRpc, itemsInBody))
    .handle('removeAlbumMediaItems', item.command(removeAlbumMediaItemsRpc, itemsInBody));
  // The album's originals as a ZIP, streamed (content/album-zip.ts); 404 before anything is sent.
  routes.handle('downloadAlbum', async (req, res) => {
    const { userId } = requireUser(res);
    const album = await deps.bus.request(getAlbumRpc, { userId, id: req.params.id });
    await streamZip(res, deps, `${album.name}.zip`, ownerOriginals(deps.bus, userId, album.id));
  });
  routes.handle(
    'listMediaItemAlbums',
    userAnswer(async (req, userId) =>
      present(req).albums(
        (await deps.bus.request(listMediaItemAlbumsRpc, { userId, mediaItemId: req.params.id })).albums,
      ),
    ),
  );
}
