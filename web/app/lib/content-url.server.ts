/**
 * Content URLs: the gateway signs them for the origin it was called on, which for the web server is
 * its internal address (e.g. http://127.0.0.1:5001) — not reachable from a phone on the LAN. Those
 * URLs are rewritten to the same path on the web app's own origin, where server.mjs streams them
 * from the gateway unchanged (the signature covers the path and `exp`, not the host). URLs the
 * gateway made for a configured public origin (TROVE_PUBLIC_URL) are left alone.
 */
import type { Album, MediaItem } from '~/api/types';

export function localizeUrl(url: string, apiUrl: string): string {
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
