import type { Router } from 'express';
import { getSharedAlbumRpc, listSharedAlbumMediaItemsRpc } from '@trove/proto-events';
import type { Bus } from '@trove/kit';
import type { ContentUrls } from '../content/content-urls';
import { OperationRouter } from '../openapi/operation-router';
import { presenter } from '../present';

export interface SharingRouteDeps {
  bus: Bus;
  contentUrls: ContentUrls;
}

/** Unsharing must stop the link at once: no cache along the way may keep a shared answer (nor its 404). */
const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * Shared albums for anyone with the link (declared `security: []`: no token is looked at). The
 * library answers 404 `shared link not found` unless the album exists and is shared, and leaves
 * out trashed and hidden items; every content URL is signed, so it loads without a token.
 */
export function sharingRoutes(deps: SharingRouteDeps): Router {
  const routes = new OperationRouter();

  routes.handle('getSharedAlbum', async (req, res) => {
    res.set(NO_STORE);
    const album = await deps.bus.request(getSharedAlbumRpc, { id: req.params.id });
    res.json(presenter(req, deps.contentUrls).album(album));
  });

  routes.handle('listSharedAlbumMediaItems', async (req, res) => {
    res.set(NO_STORE);
    const { items } = await deps.bus.request(listSharedAlbumMediaItemsRpc, { id: req.params.id, ...req.query });
    res.json(presenter(req, deps.contentUrls).mediaItems(items));
  });

  return routes.router;
}
