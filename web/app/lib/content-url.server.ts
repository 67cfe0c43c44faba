/**
 * Content URLs: the gateway signs them for the origin it was called on, which for the web server is
 * its internal address (e.g. http://127.0.0.1:5001) — not reachable from a phone on the LAN. Those
 * URLs are rewritten to the same path on the web app's own origin, where server.mjs streams them
 * from the gateway unchanged (the signature covers the path and `exp`, not the host). URLs the
 * gateway made for a configured public origin (TROVE_PUBLIC_URL) are left alone.
 */
import type { Album, MediaItem, SharedAlbum, SharedMediaItem } from '~/api/types';

export function localizeUrl(url: string, apiUrl: string): string {
  if (url === '') return url;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  return u.origin === new URL(apiUrl).origin ? `${u.pathname}${u.search}` : url;
}

export function localizeItem(item: MediaItem, apiUrl: string): MediaItem {
  return {
    ...item,
    sourceUrl: localizeUrl(item.sourceUrl, apiUrl),
    previewUrl: localizeUrl(item.previewUrl, apiUrl),
    thumbnailUrl: localizeUrl(item.thumbnailUrl, apiUrl),
    motionUrl: item.motionUrl === null ? null : localizeUrl(item.motionUrl, apiUrl),
  };
}

export function localizeItems(items: MediaItem[], apiUrl: string): MediaItem[] {
  return items.map((i) => localizeItem(i, apiUrl));
}

export function localizeAlbum(album: Album, apiUrl: string): Album {
  return { ...album, coverMediaItem: album.coverMediaItem ? localizeItem(album.coverMediaItem, apiUrl) : null };
}

/**
 * A shared album's item (the API's visitor shape) as the viewer components take items, its URLs made
 * local. What a visitor is not told stays empty: no owner, no file name, no upload time, no flags,
 * and no original (`sourceUrl` empty: the viewer then offers no download) unless the owner shares locations.
 */
export function localizeSharedItem(item: SharedMediaItem, apiUrl: string): MediaItem {
  return localizeItem(
    {
      ...item,
      userId: '',
      filename: '',
      sourceUrl: item.sourceUrl ?? '',
      favourite: false,
      shared: true,
      hidden: false,
      deleted: false,
      failureReason: null,
      motionMediaItemId: null,
      createdAt: '',
      updatedAt: '',
    },
    apiUrl,
  );
}

export function localizeSharedAlbum(album: SharedAlbum, apiUrl: string): SharedAlbum {
  const cover = album.coverMediaItem;
  if (!cover) return album;
  const local = (url: string) => localizeUrl(url, apiUrl);
  const urls = {
    sourceUrl: cover.sourceUrl === null ? null : local(cover.sourceUrl),
    previewUrl: local(cover.previewUrl),
    thumbnailUrl: local(cover.thumbnailUrl),
    motionUrl: cover.motionUrl === null ? null : local(cover.motionUrl),
  };
  return { ...album, coverMediaItem: { ...cover, ...urls } };
}
