/** JSON for the viewer's info panel: GET ?id=<item> → the item's places, things and people (links to their pages). */
import { json } from '@remix-run/node';
import type { LoaderFunctionArgs } from '@remix-run/node';
import { apiFailure, requireSession } from '~/lib/auth.server';
import { itemEntries } from '~/lib/explore.server';
import { isUuid } from '~/lib/ids';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const id = new URL(request.url).searchParams.get('id');
  if (!isUuid(id)) return json({ message: 'id must be a media item id' }, { status: 400 });
  try {
    const session = await requireSession(request, context, 'api');
    const entries = await itemEntries(session.api, id);
    return json(entries, { headers: await session.headers({ 'Cache-Control': 'no-store' }) });
  } catch (err) {
    throw apiFailure(err);
  }
}
