import { getSharedAlbumRpc, listSharedAlbumMediaItemsRpc } from '@trove/proto-events';
import type { Bus } from '@trove/kit';
import type { ContentUrls } from '../content/content-urls';
import type { ClientAddresses, RequestFrom } from '../http/client-address';
import type { OperationRouter } from '../openapi/operation-router';
import { presenter } from '../present';
import { tooManyRequests } from '../security/rate-limiter';
import type { RateLimiter } from '../security/rate-limiter';

export interface SharingRouteDeps {
  bus: Bus;
  contentUrls: ContentUrls;
  /** Calls per client address: anyone may call these, so nobody may call them without bound. */
  sharingLimiter: RateLimiter;
  clientAddresses: ClientAddresses;
}

/** Unsharing must stop the link at once: no cache along the way may keep a shared answer (nor its 404). */
const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * Shared albums for anyone with the link (declared `security: []`: no token is looked at). The
 * library answers 404 `shared link not found` unless the album exists and is shared, and leaves
 * out trashed and hidden items; every content URL is signed, so it loads without a token.
 * Rate-limited per client address (429 with Retry-After).
 */
export function sharingRoutes(routes: OperationRouter, deps: SharingRouteDeps): void {
  const admit = (req: RequestFrom) => {
    const limit = deps.sharingLimiter.take(deps.clientAddresses.keyOf(req));
    if (!limit.allowed) throw tooManyRequests('too many requests', limit.retryAfterSeconds);
  };

  routes.handle('getSharedAlbum', async (req, res) => {
    res.set(NO_STORE);
    admit(req);
    const album = await deps.bus.request(getSharedAlbumRpc, { id: req.params.id });
    res.json(presenter(req, deps.contentUrls).album(album));
  });

  routes.handle('listSharedAlbumMediaItems', async (req, res) => {
    res.set(NO_STORE);
    admit(req);
    const { items } = await deps.bus.request(listSharedAlbumMediaItemsRpc, { id: req.params.id, ...req.query });
    res.json(presenter(req, deps.contentUrls).mediaItems(items));
  });
}
