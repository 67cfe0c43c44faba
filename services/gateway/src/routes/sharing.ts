import { getSharedAlbumRpc, listSharedAlbumMediaItemsRpc } from '@trove/proto-events';
import { notFound } from '@trove/kit';
import type { Bus } from '@trove/kit';
import type { ContentUrls } from '../content/content-urls';
import { ownerShares } from '../content/shared-content';
import type { FeatureSource } from '../features/recent-features';
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
 * and checked again when fetched. Rate-limited per client address (429 with Retry-After; the web
 * server names its visitor's address with the proxy secret), lookups that answer 404 in a bucket of
 * their own (SharingAdmission).
 */
export function sharingRoutes(routes: OperationRouter, deps: SharingRouteDeps): void {
  /** The visitor's lookup, admitted per address; a link whose owner may not share answers as one that does not exist. */
  const sharedLookup = <T extends { userId: string }>(req: RequestFrom, lookup: () => Promise<T>) =>
    deps.sharingAdmission.lookup(deps.clientAddresses.keyOf(req), async () => {
      const found = await lookup();
      if (!(await ownerShares(deps.features, found.userId))) throw linkNotFound();
      return found;
    });

  routes.handle('getSharedAlbum', async (req, res) => {
    res.set(NO_STORE);
    const album = await sharedLookup(req, () => deps.bus.request(getSharedAlbumRpc, { id: req.params.id }));
    res.json(presenter(req, deps.contentUrls).sharedAlbum(album));
  });

  routes.handle('listSharedAlbumMediaItems', async (req, res) => {
    res.set(NO_STORE);
    const shared = await sharedLookup(req, () =>
      deps.bus.request(listSharedAlbumMediaItemsRpc, { id: req.params.id, ...req.query }),
    );
    const present = presenter(req, deps.contentUrls);
    res.json(shared.items.map((item) => present.sharedMediaItem(item, req.params.id, shared.shareLocation)));
  });
}
