/**
 * GET ?ids=a,b,…: which of these items the album holds as the user sees it, for the "add photos" picker to mark
 * them as there already while it pages through the library.
 */
import { json } from '@remix-run/node';
import type { LoaderFunctionArgs } from '@remix-run/node';
import { MAX_HELD_IDS } from '~/lib/album-held';
import { albumIdFrom, albumItemsHeld } from '~/lib/albums.server';
import { apiFailure, requireSession } from '~/lib/auth.server';
import { isUuid } from '~/lib/ids';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const id = albumIdFrom(params);
  const ids = [...new Set((new URL(request.url).searchParams.get('ids') ?? '').split(',').filter(isUuid))];
  if (ids.length === 0 || ids.length > MAX_HELD_IDS)
    return json({ message: `ask about 1 to ${MAX_HELD_IDS} item ids` }, { status: 400 });
  try {
    const session = await requireSession(request, context, 'api');
    const held = await albumItemsHeld(session.api, id, ids);
    return json({ held }, { headers: await session.headers({ 'Cache-Control': 'no-store' }) });
  } catch (err) {
    throw apiFailure(err);
  }
}
