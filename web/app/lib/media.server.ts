/**
 * Media items through the API: the lists the app shows, one item, and the actions on items. Every
 * answer's content URLs are made local (content-url.server.ts).
 */
import { createApiClient, ok } from '../api/client.server';
import type { ApiClient } from '../api/client.server';
import { PAGE_LIMIT } from '../api/types';
import type { MediaItem, MediaView } from '../api/types';
import { localizeItem, localizeItems } from './content-url.server';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: unknown): s is string => typeof s === 'string' && UUID.test(s);

/** `?view=library|favourites|hidden|trash|album|shared&album=<id>` → a view, or null when invalid. */
export function parseView(params: URLSearchParams): MediaView | null {
  const kind = params.get('view') ?? 'library';
  switch (kind) {
    case 'library':
    case 'favourites':
    case 'hidden':
    case 'trash':
      return { kind };
    case 'album':
    case 'shared': {
      const albumId = params.get('album');
      return isUuid(albumId) ? { kind, albumId } : null;
    }
    default:
      return null;
  }
}

export function viewQuery(view: MediaView): string {
  return view.kind === 'album' || view.kind === 'shared' ? `view=${view.kind}&album=${view.albumId}` : `view=${view.kind}`;
}

/** One page of a view. `api` may be null only for the public `shared` view. */
export async function listView(apiUrl: string, api: ApiClient | null, view: MediaView, page: number, limit = PAGE_LIMIT): Promise<MediaItem[]> {
  const query = { page, limit };
  let items: MediaItem[];
  if (view.kind === 'shared') {
    items = await ok(createApiClient(apiUrl).GET('/v1/sharing/{id}/mediaItems', { params: { path: { id: view.albumId }, query } }));
  } else {
    if (!api) throw new Error('listView needs a session for this view');
    switch (view.kind) {
      case 'library':
        items = await ok(api.GET('/v1/mediaItems', { params: { query } }));
        break;
      case 'favourites':
        items = await ok(api.GET('/v1/favourites', { params: { query } }));
        break;
      case 'hidden':
        items = await ok(api.GET('/v1/hidden', { params: { query } }));
        break;
      case 'trash':
        items = await ok(api.GET('/v1/trash', { params: { query } }));
        break;
      case 'album':
        items = await ok(api.GET('/v1/albums/{id}/mediaItems', { params: { path: { id: view.albumId }, query } }));
        break;
    }
  }
  return localizeItems(items, apiUrl);
}

export async function getItem(apiUrl: string, api: ApiClient, id: string): Promise<MediaItem> {
  return localizeItem(await ok(api.GET('/v1/mediaItems/{id}', { params: { path: { id } } })), apiUrl);
}

/** Several items by id (missing ones are left out), a few calls at a time. */
export async function getItems(apiUrl: string, api: ApiClient, ids: string[], concurrency = 8): Promise<MediaItem[]> {
  const out: MediaItem[] = [];
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      const { data, response } = await api.GET('/v1/mediaItems/{id}', { params: { path: { id } } });
      if (response.ok && data) out.push(localizeItem(data, apiUrl));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, ids.length) }, worker));
  return out;
}

/** What the item actions can do, as the browser sends it. */
export type ItemAction =
  | { intent: 'favourite' | 'unfavourite' | 'hide' | 'unhide' | 'trash' | 'restore'; ids: string[] }
  | { intent: 'describe'; id: string; description: string | null }
  | { intent: 'addToAlbum' | 'removeFromAlbum'; albumId: string; ids: string[] }
  | { intent: 'setCover'; albumId: string; id: string };

const BULK = ['favourite', 'unfavourite', 'hide', 'unhide', 'trash', 'restore'] as const;
/** The API's largest bulk request. */
export const MAX_BULK = 1000;

export class InvalidActionError extends Error {}

function ids(v: unknown): string[] {
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_BULK || !v.every(isUuid)) throw new InvalidActionError(`ids must be 1 to ${MAX_BULK} media item ids`);
  return [...new Set(v)];
}

export function parseItemAction(body: unknown): ItemAction {
  if (!body || typeof body !== 'object') throw new InvalidActionError('expected a JSON object');
  const b = body as Record<string, unknown>;
  const intent = b.intent;
  if ((BULK as readonly unknown[]).includes(intent)) return { intent: intent as (typeof BULK)[number], ids: ids(b.ids) };
  if (intent === 'describe') {
    if (!isUuid(b.id)) throw new InvalidActionError('id must be a media item id');
    const d = b.description;
    if (d !== null && typeof d !== 'string') throw new InvalidActionError('description must be text or null');
    if (typeof d === 'string' && d.length > 2000) throw new InvalidActionError('description must be at most 2000 characters');
    return { intent, id: b.id, description: typeof d === 'string' && d.trim() === '' ? null : d };
  }
  if (intent === 'addToAlbum' || intent === 'removeFromAlbum') {
    if (!isUuid(b.albumId)) throw new InvalidActionError('albumId must be an album id');
    return { intent, albumId: b.albumId, ids: ids(b.ids) };
  }
  if (intent === 'setCover') {
    if (!isUuid(b.albumId) || !isUuid(b.id)) throw new InvalidActionError('albumId and id must be ids');
    return { intent, albumId: b.albumId, id: b.id };
  }
  throw new InvalidActionError(`unknown intent ${JSON.stringify(intent)}`);
}

export async function applyItemAction(api: ApiClient, action: ItemAction): Promise<void> {
  switch (action.intent) {
    case 'favourite':
      return ok(api.POST('/v1/favourites', { body: { mediaItems: action.ids } }));
    case 'unfavourite':
      return ok(api.DELETE('/v1/favourites', { body: { mediaItems: action.ids } }));
    case 'hide':
      return ok(api.POST('/v1/hidden', { body: { mediaItems: action.ids } }));
    case 'unhide':
      return ok(api.DELETE('/v1/hidden', { body: { mediaItems: action.ids } }));
    case 'trash':
      return ok(api.POST('/v1/trash', { body: { mediaItems: action.ids } }));
    case 'restore':
      return ok(api.DELETE('/v1/trash', { body: { mediaItems: action.ids } }));
    case 'describe':
      return ok(api.PUT('/v1/mediaItems/{id}', { params: { path: { id: action.id } }, body: { description: action.description } }));
    case 'addToAlbum':
      return ok(api.POST('/v1/albums/{id}/mediaItems', { params: { path: { id: action.albumId } }, body: { mediaItems: action.ids } }));
    case 'removeFromAlbum':
      return ok(api.DELETE('/v1/albums/{id}/mediaItems', { params: { path: { id: action.albumId } }, body: { mediaItems: action.ids } }));
    case 'setCover':
      return ok(api.PUT('/v1/albums/{id}', { params: { path: { id: action.albumId } }, body: { coverMediaItemId: action.id } }));
  }
}

/** Today's `MMDD` for a date in the user's time zone (the browser sends it). */
export const MONTH_DATE = /^(0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])$/;
