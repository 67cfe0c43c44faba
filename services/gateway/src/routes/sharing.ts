import { getSharedAlbumRpc, listSharedAlbumMediaItemsRpc } from '@trove/proto-events';
import type { Bus } from '@trove/kit';
import type { ContentUrls } from '../content/content-urls';
import type { ClientAddresses, RequestFrom } from '../http/client-address';
import type { OperationRouter } from '../openapi/operation-router';
import { presenter } from '../present';
import type { SharingAdmission } from '../security/sharing-admission';

export interface SharingRouteDeps {
  bus: Bus;
  contentUrls: ContentUrls;
  /** Calls per client address (found and missed counted apart): anyone may call these, so nobody may call them without bound. */
  sharingAdmission: SharingAdmission;
  clientAddresses: ClientAddresses;
}

/** Unsharing must stop the link at once: no cache along the way may keep a shared answer (nor its 404). */
const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * Shared albums for anyone with the link (declared `security: []`: no token is looked at). The
 * library answers 404 `shared link not found` unless the album exists and is shared, and leaves
 * out trashed and hidden items; every content URL is signed, so it loads without a token.
 * Rate-limited per client address (429 with Retry-After; the web server names its visitor's address
 * with the proxy secret), lookups of unknown ids in a bucket of their own (SharingAdmission).
 */
export function sharingRoutes(routes: OperationRouter, deps: SharingRouteDeps): void {
  const admitted = <T>(req: RequestFrom, lookup: () => Promise<T>) => deps.sharingAdmission.lookup(deps.clientAddresses.keyOf(req), lookup);

  routes.handle('getSharedAlbum', async (req, res) => {
    res.set(NO_STORE);
    const album = await admitted(req, () => deps.bus.request(getSharedAlbumRpc, { id: req.params.id }));
    res.json(presenter(req, deps.contentUrls).album(album));
  });

  routes.handle('listSharedAlbumMediaItems', async (req, res) => {
    res.set(NO_STORE);
    const { items } = await admitted(req, () => deps.bus.request(listSharedAlbumMediaItemsRpc, { id: req.params.id, ...req.query }));
    res.json(presenter(req, deps.contentUrls).mediaItems(items));
  });
}
