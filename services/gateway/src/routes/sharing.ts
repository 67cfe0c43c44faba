import { getSharedAlbumRpc, listSharedAlbumMediaItemsRpc } from '@trove/proto-events';
import { notFound } from '@trove/kit';
import type { Bus } from '@trove/kit';
import type { ContentUrls } from '../content/content-urls';
import { ownerShares } from '../content/shared-content';
import type { FeatureSource } from '../features/recent-features';
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
  /** Users' effective features: a link answers only while its owner has `sharing`. */
  features: FeatureSource;
}

/** What a link whose owner may not share answers: the same as one that does not exist. */
const linkNotFound = () => notFound('shared link not found');

/** Unsharing must stop the link at once: no cache along the way may keep a shared answer (nor its 404). */
const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * Shared albums for anyone with the link (declared `security: []`: no token is looked at). The
 * library answers 404 `shared link not found` unless the album exists and is shared, and leaves
 * out trashed and hidden items (one page at a time, whatever the album's size); the gateway answers
 * the same 404 while the owner's `sharing` feature is off, and shows the visitor's shapes
 * (SharedAlbum, SharedMediaItem: nothing of the owner). Every content URL is signed for the album
 * and checked again when fetched. Rate-limited per client address (429 with Retry-After).
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
    if (!(await ownerShares(deps.features, album.userId))) throw linkNotFound();
    res.json(presenter(req, deps.contentUrls).sharedAlbum(album));
  });

  routes.handle('listSharedAlbumMediaItems', async (req, res) => {
    res.set(NO_STORE);
    admit(req);
    const shared = await deps.bus.request(listSharedAlbumMediaItemsRpc, { id: req.params.id, ...req.query });
    if (!(await ownerShares(deps.features, shared.userId))) throw linkNotFound();
    const present = presenter(req, deps.contentUrls);
    res.json(shared.items.map((item) => present.sharedMediaItem(item, req.params.id, shared.shareLocation)));
  });
}
