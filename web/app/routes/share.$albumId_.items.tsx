/** GET ?page=N: a page of a shared album for the grid, with the visitor's unlock token (its cookie is scoped to /share/<id>). */
import { json } from '@remix-run/node';
import type { LoaderFunctionArgs } from '@remix-run/node';
import { albumIdFrom } from '~/lib/albums.server';
import { apiFailure } from '~/lib/auth.server';
import { listView } from '~/lib/media-items.server';
import { readShareToken } from '~/lib/share-token.server';
import { visitorApi } from '~/lib/visitor.server';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const albumId = albumIdFrom(params);
  const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
  if (!Number.isInteger(page) || page < 1) return json({ message: 'bad page' }, { status: 400 });
  try {
    const api = visitorApi(context, await readShareToken(request, albumId));
    const items = await listView(context.config.apiUrl, api, { kind: 'shared', albumId }, page);
    return json({ items }, { headers: { 'Cache-Control': 'no-store' } });
  } catch (err) {
    throw apiFailure(err);
  }
}
