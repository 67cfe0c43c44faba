import type { Router } from 'express';
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
import { OperationRouter } from '../openapi/operation-router';
import type { OperationHandler } from '../openapi/operation-router';
import { requestedChanges, schemaFields } from '../openapi/schema-fields';
import { presenter } from '../present';
import { requireUser } from '../security/authenticate';

export interface AlbumRouteDeps {
  bus: Bus;
  contentUrls: ContentUrls;
}

/**
 * Albums and their items, for the token's user (the library service scopes every call to it:
 * another user's album answers 404 `album not found`, another user's item `mediaitem not found`).
 * Query, path and body were validated against openapi.yaml, which also filled the defaults.
 */
export function albumRoutes(deps: AlbumRouteDeps): Router {
  const routes = new OperationRouter();
  const present = (req: RequestOrigin) => presenter(req, deps.contentUrls);

  routes.handle('listAlbums', async (req, res) => {
    const { userId } = requireUser(res);
    const { albums } = await deps.bus.request(listAlbumsRpc, { userId, ...req.query });
    res.json(present(req).albums(albums));
  });

  routes.handle('createAlbum', async (req, res) => {
    const { userId } = requireUser(res);
    const album = await deps.bus.request(createAlbumRpc, { userId, ...schemaFields('AlbumRequest', req.body) });
    res.status(201).json(present(req).album(album));
  });

  routes.handle('getAlbum', async (req, res) => {
    const { userId } = requireUser(res);
    res.json(present(req).album(await deps.bus.request(getAlbumRpc, { userId, id: req.params.id })));
  });

  routes.handle('updateAlbum', async (req, res) => {
    const { userId } = requireUser(res);
    await deps.bus.request(updateAlbumRpc, { userId, id: req.params.id, ...requestedChanges('AlbumUpdateRequest', req.body) });
    res.status(204).end();
  });

  routes.handle('deleteAlbum', async (req, res) => {
    const { userId } = requireUser(res);
    await deps.bus.request(deleteAlbumRpc, { userId, id: req.params.id });
    res.status(204).end();
  });

  routes.handle('listAlbumMediaItems', async (req, res) => {
    const { userId } = requireUser(res);
    const { items } = await deps.bus.request(listAlbumMediaItemsRpc, { userId, id: req.params.id, ...req.query });
    res.json(present(req).mediaItems(items));
  });

  const changeItems =
    (contract: typeof addAlbumMediaItemsRpc): OperationHandler<'addAlbumMediaItems' | 'removeAlbumMediaItems'> =>
    async (req, res) => {
      const { userId } = requireUser(res);
      await deps.bus.request(contract, { userId, id: req.params.id, mediaItemIds: req.body.mediaItems });
      res.status(204).end();
    };
  routes.handle('addAlbumMediaItems', changeItems(addAlbumMediaItemsRpc));
  routes.handle('removeAlbumMediaItems', changeItems(removeAlbumMediaItemsRpc));

  routes.handle('listMediaItemAlbums', async (req, res) => {
    const { userId } = requireUser(res);
    const { albums } = await deps.bus.request(listMediaItemAlbumsRpc, { userId, mediaItemId: req.params.id });
    res.json(present(req).albums(albums));
  });

  return routes.router;
}
