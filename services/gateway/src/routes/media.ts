import {
  getMediaItemRpc,
  listMediaItemsRpc,
  locateContentRpc,
  mediaExistRpc,
  purgeMediaItemsRpc,
  emptyTrashRpc,
  setMediaFlagRpc,
  timelineBucketsRpc,
  updateMediaItemRpc,
  yearsAgoRpc,
} from '@trove/proto-events';
import type { ListMediaItemsRequestV1, SetMediaFlagRequestV1 } from '@trove/proto-events';
import { badRequest } from '@trove/kit';
import type { BlobStore, Bus, Logger } from '@trove/kit';
import type { ContentUrls, RequestOrigin } from '../content/content-urls';
import { streamZip } from '../content/album-zip';
import { inPages, selectedOriginals } from '../content/selected-originals';
import { serveBlob } from '../content/serve-blob';
import { checkMemberContent, checkSharedContent } from '../content/shared-content';
import type { FeatureSource } from '../features/recent-features';
import type { ContentVariant } from '../content/url-signer';
import type { OperationRouter } from '../openapi/operation-router';
import type { OperationHandler } from '../openapi/operation-router';
import { presenter } from '../present';
import { requestedChanges } from '../openapi/schema-fields';
import { contentAccess, requireUser } from '../security/authenticate';
import { decodeCursor, encodeCursor, nextLink } from './list-cursor';
import { itemCalls, userAnswer, userCommand } from './user-calls';

export interface MediaRouteDeps {
  bus: Bus;
  blobs: BlobStore;
  log: Logger;
  contentUrls: ContentUrls;
  /** Users' effective features: a shared album's URL opens only while its owner has `sharing`. */
  features: FeatureSource;
}

/** Originals never change under their URL; derived files may be regenerated (their ETag changes then). */
const CACHE_ORIGINAL = 'private, max-age=31536000, immutable';
const CACHE_DERIVED = 'private, max-age=3600';
/** Deleting up to a thousand items for good (their blobs, events, documents) may take a while. */
const PURGE_TIMEOUT_MS = 120_000;
/** A shared album's URL is checked at every fetch: a browser revalidates (a cheap 304) instead of keeping bytes it may no longer see. */
const CACHE_SHARED = 'private, no-cache';

/**
 * Media items: list, read, update, trash; favourites, hidden and trash lists and bulk flags;
 * "years ago"; the content calls. Query, path and body were validated against openapi.yaml;
 * every call is scoped to the token's user by the media service (others' ids answer 404).
 */
export function mediaRoutes(routes: OperationRouter, deps: MediaRouteDeps): void {
  const present = (req: RequestOrigin) => presenter(req, deps.contentUrls);
  const item = itemCalls(deps);

  /**
   * A list of the user's items in one view (the library's query also filters by type, category and
   * status; the others take none of those). A page by number or after a `cursor`; a full page says
   * where the next one starts (X-Next-Cursor and Link headers) — the trash, ordered by deletion, has
   * no cursor in the contract.
   */
  const listView =
    (view: ListMediaItemsRequestV1['view']): OperationHandler<'listMediaItems'> =>
    async (req, res) => {
      const { userId } = requireUser(res);
      const { cursor, ...query } = req.query;
      if (cursor !== undefined && query.page !== undefined && query.page !== 1)
        throw badRequest('cursor and page do not go together: a cursor already says where the page starts');
      const after = cursor === undefined ? undefined : decodeCursor(cursor);
      const list = await deps.bus.request(listMediaItemsRpc, { userId, view, ...query, ...(after ? { after } : {}) });
      if (list.nextAfter && view !== 'trash') {
        const next = encodeCursor(list.nextAfter);
        res.setHeader('X-Next-Cursor', next);
        res.setHeader('Link', nextLink(req.originalUrl, next));
      }
      res.status(200).json(present(req).mediaItems(list.items));
    };
  /** Sets (or clears) a flag on the user's items. */
  const setFlag = (flag: SetMediaFlagRequestV1['flag'], value: boolean): OperationHandler<'addFavourites'> =>
    userCommand((req, userId) => deps.bus.request(setMediaFlagRpc, { userId, ids: req.body.mediaItems, flag, value }));
  /**
   * An item's content: the original or a derived file. A bearer token scopes the lookup to its
   * user; a verified signed URL names the item itself; a shared album's signed URL is checked
   * against the album again at every fetch (content/shared-content.ts).
   */
  const content =
    (variant: ContentVariant): OperationHandler<'getMediaItemOriginal'> =>
    async (req, res) => {
      const access = contentAccess(res);
      const id = req.params.id;
      const location = await deps.bus.request(locateContentRpc, {
        ...(access.kind === 'user' ? { userId: access.claims.userId } : {}),
        id,
        variant,
      });
      if (access.kind === 'shared') await checkSharedContent(deps, access, variant, location, id);
      if (access.kind === 'member') await checkMemberContent(deps, access.albumId, access.userId, location, id);
      const shared = access.kind === 'shared';
      await serveBlob(req, res, deps.blobs, deps.log, {
        key: location.key,
        contentType: location.contentType,
        cacheControl: shared ? CACHE_SHARED : variant === 'original' ? CACHE_ORIGINAL : CACHE_DERIVED,
        // A visitor is not told the owner's file name.
        filename: variant === 'original' && !shared ? location.filename : undefined,
      });
    };

  routes.handle('listMediaItems', listView('library'));
  routes.handle(
    'getTimelineBuckets',
    userAnswer((req, userId) => {
      const { favourites, ...filters } = req.query;
      return deps.bus.request(timelineBucketsRpc, { userId, view: favourites ? 'favourites' : 'library', ...filters });
    }),
  );
  routes
    .handle(
      'getMediaItem',
      item.answer(getMediaItemRpc, (req, item) => present(req).mediaItem(item)),
    )
    .handle(
      'updateMediaItem',
      item.command(updateMediaItemRpc, (req) => {
        const changes = requestedChanges('MediaItemRequest', req.body);
        // The validator checked each field against the contract; the pair rule spans two fields.
        const { latitude, longitude } = changes;
        const paired =
          (latitude === undefined && longitude === undefined) ||
          (latitude === null && longitude === null) ||
          (typeof latitude === 'number' && typeof longitude === 'number');
        if (!paired) throw badRequest('latitude and longitude go together: both numbers, or both null');
        return changes;
      }),
    )
    .handle(
      'mediaItemsExist',
      userAnswer((req, userId) => deps.bus.request(mediaExistRpc, { userId, sha256: req.body.sha256 })),
    );
  routes.handle(
    'deleteMediaItem',
    userCommand((req, userId) =>
      deps.bus.request(setMediaFlagRpc, { userId, ids: [req.params.id], flag: 'deleted', value: true }),
    ),
  );

  // A selection's originals as a ZIP: every id checked first (404 before anything is sent), then streamed.
  routes.handle('downloadMediaItems', async (req, res) => {
    const { userId } = requireUser(res);
    const { mediaItems, albumId } = req.body;
    const entries = await selectedOriginals(deps.bus, userId, mediaItems, albumId);
    const count = new Set(mediaItems).size;
    await streamZip(res, deps, `trove-${count}-item${count === 1 ? '' : 's'}.zip`, inPages(entries));
  });
  routes.handle('getMediaItemOriginal', content('original'));
  routes.handle('getMediaItemPreview', content('preview'));
  routes.handle('getMediaItemThumbnail', content('thumbnail'));

  routes.handle('listFavourites', listView('favourites'));
  routes.handle('addFavourites', setFlag('favourite', true));
  routes.handle('removeFavourites', setFlag('favourite', false));
  routes.handle('listHidden', listView('hidden'));
  routes.handle('hideMediaItems', setFlag('hidden', true));
  routes.handle('unhideMediaItems', setFlag('hidden', false));
  routes.handle('listTrash', listView('trash'));
  routes.handle('trashMediaItems', setFlag('deleted', true));
  routes.handle('restoreMediaItems', setFlag('deleted', false));
  routes.handle(
    'purgeTrashedMediaItems',
    userCommand((req, userId) =>
      deps.bus.request(purgeMediaItemsRpc, { userId, ids: req.body.mediaItems }, { timeoutMs: PURGE_TIMEOUT_MS }),
    ),
  );
  // 202: the items left the trash; the media service deletes them in the background.
  routes.handle(
    'emptyTrash',
    userAnswer((_req, userId) => deps.bus.request(emptyTrashRpc, { userId }), 202),
  );

  routes.handle(
    'listYearsAgoMediaItems',
    userAnswer(async (req, userId) =>
      present(req).mediaItems(
        (await deps.bus.request(yearsAgoRpc, { userId, monthDate: req.params.monthDate, ...req.query })).items,
      ),
    ),
  );
}
