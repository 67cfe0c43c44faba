/**
 * JSON for the "add to album" dialog:
 *   GET                      the albums the user may add to (their own and those they contribute to),
 *                            most recently changed first
 *   POST {name, ids}         a new album holding those items
 */
import { json } from '@remix-run/node';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { apiFailure, requireSession } from '~/lib/auth.server';
import { albumName, createAlbum, listAllAlbums } from '~/lib/albums.server';
import { isUuid } from '~/lib/ids';
import { MAX_BULK } from '~/lib/item-actions.server';

export async function loader({ request, context }: LoaderFunctionArgs) {
  try {
    const session = await requireSession(request, context, 'api');
    // A viewer of someone else's album cannot add to it (the API answers 403).
    const albums = (await listAllAlbums(context.config.apiUrl, session.api, '-updatedAt')).filter(
      (a) => a.role !== 'viewer',
    );
    return json({ albums }, { headers: await session.headers({ 'Cache-Control': 'no-store' }) });
  } catch (err) {
    throw apiFailure(err);
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  // The session first: nobody without one gets their body read.
  const session = await requireSession(request, context, 'api').catch((err: unknown) => {
    throw apiFailure(err);
  });
  const body = (await request.json().catch(() => null)) as { name?: unknown; ids?: unknown } | null;
  const name = albumName(typeof body?.name === 'string' ? body.name : null);
  if (!name) return json({ message: 'An album needs a name of 1 to 200 characters.' }, { status: 400 });
  const ids = Array.isArray(body?.ids) ? body.ids.filter(isUuid).slice(0, MAX_BULK) : [];
  try {
    const album = await createAlbum(context.config.apiUrl, session.api, name, null, ids);
    return json({ album }, { status: 201, headers: await session.headers() });
  } catch (err) {
    throw apiFailure(err);
  }
}
