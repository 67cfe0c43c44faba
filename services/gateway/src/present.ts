import type { AlbumV1, MediaItemV1, PlaceV1, ThingV1 } from '@trove/proto-events';
import type { components } from '@trove/openapi';
import type { ContentUrls, RequestOrigin } from './content/content-urls';
import { schemaFields } from './openapi/schema-fields';

type MediaItem = components['schemas']['MediaItem'];
type Album = components['schemas']['Album'];
type Place = components['schemas']['Place'];
type Thing = components['schemas']['Thing'];

/** Media items by id, as the media service answered them (what it no longer has is missing). */
export type MediaItemsById = ReadonlyMap<string, MediaItemV1>;

/**
 * Service answers as the API shows them (the MediaItem, Album, Place and Thing of openapi.yaml,
 * fields in its order): a media item's metadata flattened into it, internal fields (sha256, blob
 * variants, deletedAt) left behind, signed absolute content URLs added (a Live Photo's motion URL too), an album's, place's or
 * thing's cover item presented the same way.
 */
export function presenter(req: RequestOrigin, urls: ContentUrls) {
  const url = urls.forRequest(req);
  const mediaItem = (item: MediaItemV1): MediaItem => {
    // A Live Photo's still plays its motion part: that video's web-playable preview.
    const motion = { motionMediaItemId: item.motionMediaItemId ?? null, motionUrl: item.motionMediaItemId ? url(item.motionMediaItemId, 'preview') : null };
    return schemaFields('MediaItem', { ...item, ...item.metadata, ...motion, sourceUrl: url(item.id, 'original'), previewUrl: url(item.id, 'preview'), thumbnailUrl: url(item.id, 'thumbnail') });
  };
  const album = (a: AlbumV1): Album => schemaFields('Album', { ...a, coverMediaItem: a.coverMediaItem ? mediaItem(a.coverMediaItem) : null });
  /** Explore answers cover ids: the cover is the item among `items`, or none (id null) when the media service no longer has it. */
  const withCover = <G extends { coverMediaItemId: string | null }>(group: G, items: MediaItemsById) => {
    const found = group.coverMediaItemId ? items.get(group.coverMediaItemId) : undefined;
    const cover = found ? mediaItem(found) : undefined;
    return { ...group, coverMediaItemId: cover?.id ?? null, coverMediaItem: cover, thumbnailUrl: cover?.thumbnailUrl ?? null };
  };
  const place = (p: PlaceV1, items: MediaItemsById): Place => schemaFields('Place', withCover(p, items));
  const thing = (t: ThingV1, items: MediaItemsById): Thing => schemaFields('Thing', withCover(t, items));
  return {
    mediaItem,
    mediaItems: (items: MediaItemV1[]): MediaItem[] => items.map(mediaItem),
    album,
    albums: (albums: AlbumV1[]): Album[] => albums.map(album),
    place,
    places: (places: PlaceV1[], items: MediaItemsById): Place[] => places.map((p) => place(p, items)),
    thing,
    things: (things: ThingV1[], items: MediaItemsById): Thing[] => things.map((t) => thing(t, items)),
  };
}
