import { Router } from 'express';
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
import type { ListAlbumsRequestV1, UpdateAlbumRequestV1 } from '@trove/proto-events';
import { badRequest } from '@trove/kit';
import type { Bus } from '@trove/kit';
import type { MediaGatewayDeps } from '../content/setup';
import { handle } from '../http/async';
import { presenter } from '../library/present';
import { requireUser } from '../security/authenticate';

export interface AlbumRouteDeps {
  bus: Bus;
  media: MediaGatewayDeps;
}

type AlbumBody = {
  name?: string;
  description?: string | null;
  coverMediaItemId?: string | null;
  shared?: boolean;
  hidden?: boolean;
};
type AlbumChanges = Omit<UpdateAlbumRequestV1, 'userId' | 'id'>;
type ListQuery = { sort: ListAlbumsRequestV1['sort']; page: number; limit: number; shared?: boolean; hidden: boolean };
type Paging = { page: number; limit: number };

/** Only the fields the contract knows: unknown extra fields are ignored, never forwarded. */
function pick(body: AlbumBody): AlbumChanges {
  const out: AlbumChanges = {};
  if (body.name !== undefined) out.name = body.name;
  if (body.description !== undefined) out.description = body.description;
  if (body.coverMediaItemId !== undefined) out.coverMediaItemId = body.coverMediaItemId;
  if (body.shared !== undefined) out.shared = body.shared;
  if (body.hidden !== undefined) out.hidden = body.hidden;
  return out;
}

/**
 * Albums and their items, for the token's user (the library service scopes every call to it:
 * another user's album answers 404 `album not found`, another user's item `mediaitem not found`).
 * Query, path and body were validated against openapi.yaml, which also filled the defaults.
 */
export function albumRoutes(deps: AlbumRouteDeps): Router {
  const r = Router();

  r.get(
    '/v1/albums',
    handle(async (req, res) => {
      const { userId } = requireUser(res);
      const q = req.query as unknown as ListQuery;
      const request: ListAlbumsRequestV1 = { userId, sort: q.sort ?? 'name', page: q.page, limit: q.limit, hidden: q.hidden === true };
      if (typeof q.shared === 'boolean') request.shared = q.shared;
      const { albums } = await deps.bus.request(listAlbumsRpc, request);
      res.json(albums.map(presenter(req, deps.media).album));
    }),
  );

  r.post(
    '/v1/albums',
    handle(async (req, res) => {
      const { userId } = requireUser(res);
      const body = pick(req.body as AlbumBody);
      const album = await deps.bus.request(createAlbumRpc, { userId, ...body, name: body.name as string });
      res.status(201).json(presenter(req, deps.media).album(album));
    }),
  );

  r.get(
    '/v1/albums/:id',
    handle(async (req, res) => {
      const { userId } = requireUser(res);
      res.json(presenter(req, deps.media).album(await deps.bus.request(getAlbumRpc, { userId, id: req.params.id })));
    }),
  );

  r.put(
    '/v1/albums/:id',
    handle(async (req, res) => {
      const { userId } = requireUser(res);
      const changes = pick(req.body as AlbumBody);
      if (Object.keys(changes).length === 0) throw badRequest('request/body must contain at least one of name, description, coverMediaItemId, shared, hidden');
      await deps.bus.request(updateAlbumRpc, { userId, id: req.params.id, ...changes });
      res.status(204).end();
    }),
  );

  r.delete(
    '/v1/albums/:id',
    handle(async (req, res) => {
      const { userId } = requireUser(res);
      await deps.bus.request(deleteAlbumRpc, { userId, id: req.params.id });
      res.status(204).end();
    }),
  );

  r.get(
    '/v1/albums/:id/mediaItems',
    handle(async (req, res) => {
      const { userId } = requireUser(res);
      const { page, limit } = req.query as unknown as Paging;
      const { items } = await deps.bus.request(listAlbumMediaItemsRpc, { userId, id: req.params.id, page, limit });
      res.json(presenter(req, deps.media).items(items));
    }),
  );

  const changeItems = (contract: typeof addAlbumMediaItemsRpc) =>
    handle(async (req, res) => {
      const { userId } = requireUser(res);
      const { mediaItems } = req.body as { mediaItems: [string, ...string[]] };
      await deps.bus.request(contract, { userId, id: req.params.id, mediaItemIds: mediaItems });
      res.status(204).end();
    });
  r.post('/v1/albums/:id/mediaItems', changeItems(addAlbumMediaItemsRpc));
  r.delete('/v1/albums/:id/mediaItems', changeItems(removeAlbumMediaItemsRpc));

  r.get(
    '/v1/mediaItems/:id/albums',
    handle(async (req, res) => {
      const { userId } = requireUser(res);
      const { albums } = await deps.bus.request(listMediaItemAlbumsRpc, { userId, mediaItemId: req.params.id });
      res.json(albums.map(presenter(req, deps.media).album));
    }),
  );

  return r;
}
