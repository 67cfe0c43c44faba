/** The actions on media items the browser asks for (favourite, hide, trash, describe, albums…): checked, then done through the API. */
import { ok } from '~/api/client.server';
import type { ApiClient } from '~/api/client.server';
import { checkChange } from './date-place';
import type { DatePlaceChange } from './date-place';
import { isUuid } from './ids';

/** What the item actions can do, as the browser sends it. */
export type ItemAction =
  | { intent: 'favourite' | 'unfavourite' | 'hide' | 'unhide' | 'trash' | 'restore'; ids: string[] }
  | { intent: 'purge'; ids: string[] }
  | { intent: 'describe'; id: string; description: string | null }
  | { intent: 'edit'; id: string; change: DatePlaceChange }
  | { intent: 'addToAlbum' | 'removeFromAlbum'; albumId: string; ids: string[] }
  | { intent: 'setCover'; albumId: string; id: string };

/** The flag each bulk intent sets (POST to its list) or clears (DELETE from it). */
const FLAG_LISTS = {
  favourite: ['/v1/favourites', 'set'],
  unfavourite: ['/v1/favourites', 'clear'],
  hide: ['/v1/hidden', 'set'],
  unhide: ['/v1/hidden', 'clear'],
  trash: ['/v1/trash', 'set'],
  restore: ['/v1/trash', 'clear'],
} as const;
type FlagIntent = keyof typeof FLAG_LISTS;

/** The API's largest bulk request. */
export const MAX_BULK = 1000;

export class InvalidActionError extends Error {}

function ids(v: unknown): string[] {
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_BULK || !v.every(isUuid))
    throw new InvalidActionError(`ids must be 1 to ${MAX_BULK} media item ids`);
  return [...new Set(v)];
}

function isFlagIntent(v: unknown): v is FlagIntent {
  return typeof v === 'string' && Object.hasOwn(FLAG_LISTS, v);
}

export function parseItemAction(body: unknown): ItemAction {
  if (!body || typeof body !== 'object') throw new InvalidActionError('expected a JSON object');
  const b = body as Record<string, unknown>;
  const intent = b.intent;
  if (isFlagIntent(intent)) return { intent, ids: ids(b.ids) };
  if (intent === 'purge') return { intent, ids: ids(b.ids) };
  if (intent === 'describe') {
    if (!isUuid(b.id)) throw new InvalidActionError('id must be a media item id');
    const d = b.description;
    if (d !== null && typeof d !== 'string') throw new InvalidActionError('description must be text or null');
    if (typeof d === 'string' && d.length > 2000)
      throw new InvalidActionError('description must be at most 2000 characters');
    return { intent, id: b.id, description: typeof d === 'string' && d.trim() === '' ? null : d };
  }
  if (intent === 'edit') {
    if (!isUuid(b.id)) throw new InvalidActionError('id must be a media item id');
    const change = checkChange(b);
    if (typeof change === 'string') throw new InvalidActionError(change);
    return { intent, id: b.id, change };
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
    case 'describe':
    case 'edit':
      return ok(
        api.PUT('/v1/mediaItems/{id}', {
          params: { path: { id: action.id } },
          body: action.intent === 'edit' ? action.change : { description: action.description },
        }),
      );
    case 'addToAlbum':
    case 'removeFromAlbum': {
      const path = '/v1/albums/{id}/mediaItems';
      const init = { params: { path: { id: action.albumId } }, body: { mediaItems: action.ids } };
      return ok(action.intent === 'addToAlbum' ? api.POST(path, init) : api.DELETE(path, init));
    }
    case 'purge':
      return ok(api.POST('/v1/trash/purge', { body: { mediaItems: action.ids } }));
    case 'setCover':
      return ok(
        api.PUT('/v1/albums/{id}', { params: { path: { id: action.albumId } }, body: { coverMediaItemId: action.id } }),
      );
    default: {
      const [list, change] = FLAG_LISTS[action.intent];
      const body = { mediaItems: action.ids };
      return ok(change === 'set' ? api.POST(list, { body }) : api.DELETE(list, { body }));
    }
  }
}
