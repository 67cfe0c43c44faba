import { Router } from 'express';
import type { Request, Response } from 'express';
import { getMediaItemRpc, listMediaItemsRpc, locateContentRpc, setMediaFlagRpc, updateMediaItemRpc, yearsAgoRpc } from '@trove/proto-events';
import type { ListMediaItemsRequestV1, MediaItemV1, SetMediaFlagRequestV1, UpdateMediaItemRequestV1 } from '@trove/proto-events';
import { badRequest } from '@trove/kit';
import type { BlobStore, Bus, Logger } from '@trove/kit';
import { serveBlob } from '../content/serve';
import type { MediaGatewayDeps } from '../content/setup';
import { publicBaseUrl } from '../content/setup';
import type { ContentVariant } from '../content/signing';
import { handle } from '../http/async';
import { presentMediaItem } from '../media/present';
import { requireUser, requireUserOrSignature } from '../security/authenticate';

export interface MediaRouteDeps {
  bus: Bus;
  blobs: BlobStore;
  log: Logger;
  media: MediaGatewayDeps;
}

/** Originals never change under their URL; derived files may be regenerated (their ETag changes then). */
const CACHE_ORIGINAL = 'private, max-age=31536000, immutable';
const CACHE_DERIVED = 'private, max-age=3600';

type Paging = { page: number; limit: number };
type FlagBody = { mediaItems: string[] };

/**
 * Media items: list, read, update, trash; favourites, hidden and trash lists and bulk flags;
 * "years ago"; the content calls. Query, path and body were validated against openapi.yaml;
 * every call is scoped to the token's user by the media service (others' ids answer 404).
 */
export function mediaRoutes(deps: MediaRouteDeps): Router {
  const r = Router();
  const present = (req: Request, items: MediaItemV1[]) => {
    const base = publicBaseUrl(req, deps.media.publicUrl);
    return items.map((item) => presentMediaItem(item, deps.media.signer, base));
  };
  const listView = (view: ListMediaItemsRequestV1['view']) =>
    handle(async (req, res) => {
      const { userId } = requireUser(res);
      const q = req.query as unknown as Paging & Pick<ListMediaItemsRequestV1, 'type' | 'category' | 'status'>;
      const request: ListMediaItemsRequestV1 = { userId, view, page: q.page, limit: q.limit };
      if (view === 'library') {
        if (q.type) request.type = q.type;
        if (q.category) request.category = q.category;
        if (q.status) request.status = q.status;
      }
      res.json(present(req, (await deps.bus.request(listMediaItemsRpc, request)).items));
    });
  const setFlag = (flag: SetMediaFlagRequestV1['flag'], value: boolean) =>
    handle(async (req, res) => {
      const { userId } = requireUser(res);
      await deps.bus.request(setMediaFlagRpc, { userId, ids: (req.body as FlagBody).mediaItems, flag, value });
      res.status(204).end();
    });

  r.get('/v1/mediaItems', listView('library'));

  r.get(
    '/v1/mediaItems/:id',
    handle(async (req, res) => {
      const { userId } = requireUser(res);
      res.json(present(req, [await deps.bus.request(getMediaItemRpc, { userId, id: req.params.id })])[0]);
    }),
  );

  r.put(
    '/v1/mediaItems/:id',
    handle(async (req, res) => {
      const { userId } = requireUser(res);
      const body = req.body as Partial<Pick<UpdateMediaItemRequestV1, 'description' | 'favourite' | 'hidden'>>;
      const changes: Pick<UpdateMediaItemRequestV1, 'description' | 'favourite' | 'hidden'> = {};
      if (body.description !== undefined) changes.description = body.description;
      if (body.favourite !== undefined) changes.favourite = body.favourite;
      if (body.hidden !== undefined) changes.hidden = body.hidden;
      if (Object.keys(changes).length === 0) throw badRequest('request/body must contain at least one of description, favourite, hidden');
      await deps.bus.request(updateMediaItemRpc, { userId, id: req.params.id, ...changes });
      res.status(204).end();
    }),
  );

  r.delete(
    '/v1/mediaItems/:id',
    handle(async (req, res) => {
      const { userId } = requireUser(res);
      await deps.bus.request(setMediaFlagRpc, { userId, ids: [req.params.id], flag: 'deleted', value: true });
      res.status(204).end();
    }),
  );

  const content = (variant: ContentVariant) =>
    handle(async (req: Request, res: Response) => {
      // A bearer token scopes the lookup to its user; a verified signed URL names the item itself.
      const user = requireUserOrSignature(res);
      const location = await deps.bus.request(locateContentRpc, { ...(user ? { userId: user.userId } : {}), id: req.params.id, variant });
      await serveBlob(req, res, deps.blobs, deps.log, {
        key: location.key,
        contentType: location.contentType,
        cacheControl: variant === 'original' ? CACHE_ORIGINAL : CACHE_DERIVED,
        filename: variant === 'original' ? location.filename : undefined,
      });
    });
  r.get('/v1/mediaItems/:id/original', content('original'));
  r.get('/v1/mediaItems/:id/preview', content('preview'));
  r.get('/v1/mediaItems/:id/thumbnail', content('thumbnail'));

  r.get('/v1/favourites', listView('favourites'));
  r.post('/v1/favourites', setFlag('favourite', true));
  r.delete('/v1/favourites', setFlag('favourite', false));
  r.get('/v1/hidden', listView('hidden'));
  r.post('/v1/hidden', setFlag('hidden', true));
  r.delete('/v1/hidden', setFlag('hidden', false));
  r.get('/v1/trash', listView('trash'));
  r.post('/v1/trash', setFlag('deleted', true));
  r.delete('/v1/trash', setFlag('deleted', false));

  r.get(
    '/v1/yearsAgo/:monthDate/mediaItems',
    handle(async (req, res) => {
      const { userId } = requireUser(res);
      const { page, limit } = req.query as unknown as Paging;
      res.json(present(req, (await deps.bus.request(yearsAgoRpc, { userId, monthDate: req.params.monthDate, page, limit })).items));
    }),
  );

  return r;
}
