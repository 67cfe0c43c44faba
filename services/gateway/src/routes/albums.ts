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
import type { Bus } from '@trove/kit';
import type { ContentUrls, RequestOrigin } from '../content/content-urls';
import type { OperationRouter } from '../openapi/operation-router';
import { schemaFields } from '../openapi/schema-fields';
import { presenter } from '../present';
import { itemCalls, userAnswer } from './user-calls';

export interface AlbumRouteDeps {
  bus: Bus;
  contentUrls: ContentUrls;
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
  routes.handle(
    'listMediaItemAlbums',
    userAnswer(async (req, userId) =>
      present(req).albums(
        (await deps.bus.request(listMediaItemAlbumsRpc, { userId, mediaItemId: req.params.id })).albums,
      ),
    ),
  );
}
