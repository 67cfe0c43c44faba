/**
 * JSON for the grid and the viewer (the browser's only way to the API, through the session):
 *   GET  ?view=…&page=N[&limit=L] a page of a list (a shared album's visitors page through /share/<id>/items)
 *   GET  ?ids=a,b,…            fresh copies of some items (the grid polls items still processing)
 *   POST {intent, …}           an action on items (favourite, hide, trash, restore, describe, albums);
 *                              `edit` (date and place) answers the item as it is now
 */
import { json } from '@remix-run/node';
import { PAGE_LIMIT } from '~/api/types';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { apiFailure, requireSession } from '~/lib/auth.server';
import { isUuid } from '~/lib/ids';
import { InvalidActionError, applyItemAction, parseItemAction } from '~/lib/item-actions.server';
import { getItem, getItems, listView } from '~/lib/media-items.server';
import { parseView } from '~/lib/media-views';

/** The most items one page may ask for (`&limit=`; the timeline fetches a month in chunks). */
export const MAX_LIMIT = 100;

/** The most ids one refresh asks for. */
export const MAX_REFRESH_IDS = 50;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const idsParam = url.searchParams.get('ids');
  try {
    if (idsParam !== null) {
      const ids = [...new Set(idsParam.split(',').filter(isUuid))].slice(0, MAX_REFRESH_IDS);
      const session = await requireSession(request, context, 'api');
      const items = await getItems(context.config.apiUrl, session.api, ids);
      return json({ items }, { headers: await session.headers({ 'Cache-Control': 'no-store' }) });
    }
    const view = parseView(url.searchParams);
    const page = Number(url.searchParams.get('page') ?? '1');
    const limit = Number(url.searchParams.get('limit') ?? PAGE_LIMIT);
    if (!view || !Number.isInteger(page) || page < 1 || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
      return json({ message: 'bad view, page or limit' }, { status: 400 });
    const session = await requireSession(request, context, 'api');
    const items = await listView(context.config.apiUrl, session.api, view, page, limit);
    return json({ items }, { headers: await session.headers({ 'Cache-Control': 'no-store' }) });
  } catch (err) {
    throw apiFailure(err);
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return json({ message: 'method not allowed' }, { status: 405 });
  // The session first: nobody without one gets their body read.
  const session = await requireSession(request, context, 'api').catch((err: unknown) => {
    throw apiFailure(err);
  });
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return json({ message: 'expected a JSON body' }, { status: 400 });
  }
  try {
    const itemAction = parseItemAction(body);
    await applyItemAction(session.api, itemAction);
    // The API's own reading of the new date and place (a null went back to the file's): the panel shows that.
    const item =
      itemAction.intent === 'edit' ? await getItem(context.config.apiUrl, session.api, itemAction.id) : undefined;
    return json({ ok: true, item }, { headers: await session.headers() });
  } catch (err) {
    if (err instanceof InvalidActionError) return json({ message: err.message }, { status: 400 });
    throw apiFailure(err);
  }
}
