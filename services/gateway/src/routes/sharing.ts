import { Router } from 'express';
import type { Response } from 'express';
import { getSharedAlbumRpc, listSharedAlbumMediaItemsRpc } from '@trove/proto-events';
import type { Bus } from '@trove/kit';
import type { MediaGatewayDeps } from '../content/setup';
import { handle } from '../http/async';
import { presenter } from '../library/present';

export interface SharingRouteDeps {
  bus: Bus;
  media: MediaGatewayDeps;
}

/** Unsharing must stop the link at once: no cache along the way may keep a shared answer (nor its 404). */
function noStore(res: Response): void {
  res.set('Cache-Control', 'no-store');
}

/**
 * Shared albums for anyone with the link (declared `security: []`: no token is looked at). The
 * library answers 404 `shared link not found` unless the album exists and is shared, and leaves
 * out trashed and hidden items; every content URL is signed, so it loads without a token.
 */
export function sharingRoutes(deps: SharingRouteDeps): Router {
  const r = Router();

  r.get(
    '/v1/sharing/:id',
    handle(async (req, res) => {
      noStore(res);
      const album = await deps.bus.request(getSharedAlbumRpc, { id: req.params.id });
      res.json(presenter(req, deps.media).album(album));
    }),
  );

  r.get(
    '/v1/sharing/:id/mediaItems',
    handle(async (req, res) => {
      noStore(res);
      const { page, limit } = req.query as unknown as { page: number; limit: number };
      const { items } = await deps.bus.request(listSharedAlbumMediaItemsRpc, { id: req.params.id, page, limit });
      res.json(presenter(req, deps.media).items(items));
    }),
  );

  return r;
}
