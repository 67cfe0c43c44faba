/** The lists of media items as the browser asks the JSON routes for them: `?view=…&album=…`. */
import type { MediaView } from '~/api/types';
import { isUuid } from './ids';

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
