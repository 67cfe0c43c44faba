import { getSharedAlbumRpc, listSharedAlbumMediaItemsRpc, unlockSharedAlbumRpc } from '@trove/proto-events';
import { AppError, notFound } from '@trove/kit';
import type { BlobStore, Bus, Logger } from '@trove/kit';
import { visitorOriginals } from '../content/album-originals';
import { streamZip } from '../content/album-zip';
import type { ContentUrls } from '../content/content-urls';
import { ownerShares } from '../content/shared-content';
import type { FeatureSource } from '../features/recent-features';
import type { ClientAddresses, RequestFrom } from '../http/client-address';
import type { OperationRouter } from '../openapi/operation-router';
import { downloadsAllowed, presenter } from '../present';
import { tooManyRequests } from '../security/rate-limiter';
import type { RateLimiter } from '../security/rate-limiter';
import type { SharingAdmission } from '../security/sharing-admission';

export interface SharingRouteDeps {
  bus: Bus;
  contentUrls: ContentUrls;
  /** Calls per client address (found and missed counted apart): anyone may call these, so nobody may call them without bound. */
  sharingAdmission: SharingAdmission;
  clientAddresses: ClientAddresses;
  /** Users' effective features: a link answers only while its owner has `sharing`. */
  features: FeatureSource;
  /** The originals a ZIP streams. */
  blobs: BlobStore;
  log: Logger;
  /** Wrong passwords per client address and album (UNLOCK_FAILURES_PER_MINUTE, as the contract says). */
  unlockFailures: RateLimiter;
}

/** Wrong link passwords allowed per visitor address and album in a minute (the burst, too). */
export const UNLOCK_FAILURES_PER_MINUTE = 5;

/** What a link whose owner may not share answers: the same as one that does not exist. */
const linkNotFound = () => notFound('shared link not found');
const passwordRequired = () => new AppError('UNAUTHORIZED', 'password required');
const downloadsOff = () => new AppError('FORBIDDEN', 'downloads are off for this link');

/** Unsharing must stop the link at once: no cache along the way may keep a shared answer (nor its 404). */
const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * Shared albums for anyone with the link (declared `security: []`: no token is looked at). The
 * library answers 404 `shared link not found` unless the album exists, is shared and its link has
 * not expired, and leaves out trashed and hidden items (one page at a time, whatever the album's
 * size); the gateway answers the same 404 while the owner's `sharing` feature is off, 401 `password
 * required` while the link has a password and the request no valid `X-Share-Token` (share-tokens.ts:
 * bound to the album and the key of its current password), and shows the visitor's shapes
 * (SharedAlbum, SharedMediaItem: nothing of the owner). Every content URL is signed for the album
 * (and the password's key) and checked again when fetched. Rate-limited per client address (429
 * with Retry-After; the web server names its visitor's address with the proxy secret), lookups that
 * answer 404 in a bucket of their own (SharingAdmission); wrong passwords per address and album.
 */
export function sharingRoutes(routes: OperationRouter, deps: SharingRouteDeps): void {
  /**
   * The visitor's lookup, admitted per address; a link whose owner may not share answers as one
   * that does not exist; a link with a password only with a token made under that password.
   */
  const sharedLookup = <T extends { userId: string; shareKey: string | null }>(
    req: RequestFrom & { params: { id: string }; get(name: string): string | undefined },
    lookup: () => Promise<T>,
  ) =>
    deps.sharingAdmission.lookup(deps.clientAddresses.keyOf(req), async () => {
      const found = await lookup();
      if (!(await ownerShares(deps.features, found.userId))) throw linkNotFound();
      if (
        found.shareKey !== null &&
        !deps.contentUrls.shareTokens.verify(req.get('x-share-token'), req.params.id, found.shareKey)
      )
        throw passwordRequired();
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
    res.json(shared.items.map((item) => present.sharedMediaItem(item, req.params.id, shared)));
  });

  // Checked like the album's view (404, 401), then the download switch (403), before anything is sent.
  routes.handle('downloadSharedAlbum', async (req, res) => {
    res.set(NO_STORE);
    const album = await sharedLookup(req, () => deps.bus.request(getSharedAlbumRpc, { id: req.params.id }));
    if (!downloadsAllowed(album)) throw downloadsOff();
    await streamZip(res, deps, `${album.name}.zip`, visitorOriginals(deps.bus, album.id));
  });

  routes.handle('unlockSharedAlbum', async (req, res) => {
    res.set(NO_STORE);
    const id = req.params.id;
    const key = `${deps.clientAddresses.keyOf(req)}|${id}`;
    // Refused before the password is looked at, right or wrong: a guesser learns nothing more.
    const limit = deps.unlockFailures.check(key);
    if (!limit.allowed) throw tooManyRequests('too many failed attempts', limit.retryAfterSeconds);
    const unlocked = await deps.sharingAdmission.lookup(deps.clientAddresses.keyOf(req), async () => {
      try {
        const found = await deps.bus.request(unlockSharedAlbumRpc, { id, password: req.body.password });
        if (!(await ownerShares(deps.features, found.userId))) throw linkNotFound();
        return found;
      } catch (err) {
        if (err instanceof AppError && err.code === 'UNAUTHORIZED') deps.unlockFailures.take(key);
        throw err;
      }
    });
    res.json({ token: deps.contentUrls.shareTokens.issue(id, unlocked.shareKey) });
  });
}
