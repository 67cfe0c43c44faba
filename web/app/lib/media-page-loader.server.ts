/** The loader of the pages that show a list of media items: the session, the first page, and a deep-linked item. */
import { json } from '@remix-run/node';
import type { ApiClient } from '~/api/client.server';
import type { MediaItem, MediaView } from '~/api/types';
import { apiFailure, requireSession } from './auth.server';
import type { WebContext } from './context.server';
import { isUuid } from './ids';
import { getItem, listView } from './media-items.server';

export interface MediaPageData {
  items: MediaItem[];
  /** `?item=<id>` when that item is not on the first page (null when unknown). */
  focus: MediaItem | null;
}

export async function loadMediaPage<E extends object = object>(
  request: Request,
  context: WebContext,
  view: MediaView,
  /** More of the page's data: as it is, or read through the session's API client (knowing the first page). */
  extra?: E | ((api: ApiClient, items: MediaItem[]) => Promise<E>),
) {
  const session = await requireSession(request, context);
  try {
    const items = await listView(context.config.apiUrl, session.api, view, 1);
    const itemId = new URL(request.url).searchParams.get('item');
    let focus: MediaItem | null = null;
    if (isUuid(itemId) && !items.some((i) => i.id === itemId)) {
      focus = await getItem(context.config.apiUrl, session.api, itemId).catch(() => null);
    }
    const data: MediaPageData = { items, focus };
    const more = typeof extra === 'function' ? await extra(session.api, items) : extra;
    return json({ ...data, ...(more as E) }, { headers: await session.headers() });
  } catch (err) {
    throw apiFailure(err);
  }
}
