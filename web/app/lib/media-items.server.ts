/**
 * Media items through the API: a page of one of the lists the app shows, and items by id. Every
 * answer's content URLs are made local (content-url.server.ts).
 */
import { createApiClient, ok } from '~/api/client.server';
import type { ApiClient } from '~/api/client.server';
import { PAGE_LIMIT } from '~/api/types';
import type { MediaItem, MediaView } from '~/api/types';
import { localizeItem, localizeItems, localizeSharedItem } from './content-url.server';
import { monthEnd } from './timeline';
import type { TimelineBucket } from './timeline';

/** The API's list behind each view of the user's own library. */
const OWN_LISTS = {
  library: '/v1/mediaItems',
  favourites: '/v1/favourites',
  hidden: '/v1/hidden',
  trash: '/v1/trash',
} as const;

/** The API's list behind each explore entry. */
const EXPLORE_LISTS = {
  place: '/v1/explore/places/{id}/mediaItems',
  thing: '/v1/explore/things/{id}/mediaItems',
  person: '/v1/explore/people/{id}/mediaItems',
} as const;

/** One page of a view. `api` may be null only for the public `shared` view (else a visitor's client: visitorApi). */
export async function listView(
  apiUrl: string,
  api: ApiClient | null,
  view: MediaView,
  page: number,
  limit = PAGE_LIMIT,
): Promise<MediaItem[]> {
  const query = { page, limit };
  let items: MediaItem[];
  if (view.kind === 'shared') {
    const shared = await ok(
      (api ?? createApiClient(apiUrl)).GET('/v1/sharing/{id}/mediaItems', {
        params: { path: { id: view.albumId }, query },
      }),
    );
    return shared.map((item) => localizeSharedItem(item, apiUrl));
  } else if (!api) {
    throw new Error('listView needs a session for this view');
  } else if (view.kind === 'album') {
    items = await ok(api.GET('/v1/albums/{id}/mediaItems', { params: { path: { id: view.albumId }, query } }));
  } else if (view.kind === 'place' || view.kind === 'thing' || view.kind === 'person') {
    items = await ok(api.GET(EXPLORE_LISTS[view.kind], { params: { path: { id: view.id }, query } }));
  } else if (view.kind === 'search') {
    items = await ok(api.GET('/v1/search', { params: { query: { ...query, q: view.q } } }));
  } else if (view.kind === 'library' && view.at) {
    const takenBefore = monthEnd(view.at);
    items = await ok(api.GET('/v1/mediaItems', { params: { query: { ...query, takenBefore } } }));
  } else {
    items = await ok(api.GET(OWN_LISTS[view.kind], { params: { query } }));
  }
  return localizeItems(items, apiUrl);
}

/** The library's months and their counts, newest first (the timeline scrubber). */
export async function timelineBuckets(api: ApiClient): Promise<TimelineBucket[]> {
  return (await ok(api.GET('/v1/timeline/buckets'))).buckets;
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
