import type { AlbumV1, MediaItemV1 } from '@trove/proto-events';
import type { components } from '@trove/openapi';
import type { ContentUrls, RequestOrigin } from './content/content-urls';
import { schemaFields } from './openapi/schema-fields';

type MediaItem = components['schemas']['MediaItem'];
type Album = components['schemas']['Album'];

/**
 * Service answers as the API shows them (the MediaItem and Album of openapi.yaml, fields in its
 * order): a media item's metadata flattened into it, internal fields (sha256, blob variants,
 * deletedAt) left behind, signed absolute content URLs added, an album's cover item presented the same way.
 */
export function presenter(req: RequestOrigin, urls: ContentUrls) {
  const url = urls.forRequest(req);
  const mediaItem = (item: MediaItemV1): MediaItem =>
    schemaFields('MediaItem', { ...item, ...item.metadata, sourceUrl: url(item.id, 'original'), previewUrl: url(item.id, 'preview'), thumbnailUrl: url(item.id, 'thumbnail') });
  const album = (a: AlbumV1): Album => schemaFields('Album', { ...a, coverMediaItem: a.coverMediaItem ? mediaItem(a.coverMediaItem) : null });
  return {
    mediaItem,
    mediaItems: (items: MediaItemV1[]): MediaItem[] => items.map(mediaItem),
    album,
    albums: (albums: AlbumV1[]): Album[] => albums.map(album),
  };
}
