/** The lists of media items as the browser asks the JSON routes for them: `?view=…&album=…|id=…|q=…`. */
import type { MediaView } from '~/api/types';
import { isUuid } from './ids';
import { parseMonth } from './timeline';

/** The longest search text the API takes. */
export const MAX_QUERY_LENGTH = 200;

/** A search text as the API takes it (trimmed, 1–200 characters), or null. */
export function searchText(q: unknown): string | null {
  if (typeof q !== 'string') return null;
  const t = q.trim();
  return t.length > 0 && t.length <= MAX_QUERY_LENGTH ? t : null;
}

/** `?view=library|favourites|hidden|trash|album|shared|place|thing|person|search&album=<id>&id=<id>&q=…` → a view, or null when invalid. */
export function parseView(params: URLSearchParams): MediaView | null {
  const kind = params.get('view') ?? 'library';
  switch (kind) {
    case 'library': {
      const at = parseMonth(params.get('at'));
      return at ? { kind, at } : { kind };
    }
    case 'favourites':
    case 'hidden':
    case 'trash':
      return { kind };
    case 'album':
    case 'shared': {
      const albumId = params.get('album');
      return isUuid(albumId) ? { kind, albumId } : null;
    }
    case 'place':
    case 'thing':
    case 'person': {
      const id = params.get('id');
      return isUuid(id) ? { kind, id } : null;
    }
    case 'search': {
      const q = searchText(params.get('q'));
      return q ? { kind, q } : null;
    }
    default:
      return null;
  }
}

export function viewQuery(view: MediaView): string {
  switch (view.kind) {
    case 'album':
    case 'shared':
      return `view=${view.kind}&album=${view.albumId}`;
    case 'place':
    case 'thing':
    case 'person':
      return `view=${view.kind}&id=${view.id}`;
    case 'search':
      return `view=search&q=${encodeURIComponent(view.q)}`;
    case 'library':
      return view.at ? `view=library&at=${view.at}` : 'view=library';
    default:
      return `view=${view.kind}`;
  }
}

/** Where the grid gets page `page` of a view: a shared album's own route (its unlock cookie is scoped there), else /api/items. */
export function pageUrl(query: string, page: number): string {
  const view = parseView(new URLSearchParams(query));
  return view?.kind === 'shared' ? `/share/${view.albumId}/items?page=${page}` : `/api/items?${query}&page=${page}`;
}
