/** JSON for the search box: GET ?q=… → names of people, places and things that start with the words. */
import { json } from '@remix-run/node';
import type { LoaderFunctionArgs } from '@remix-run/node';
import { apiFailure, requireSession } from '~/lib/auth.server';
import { listPeople, listPlaces, listThings } from '~/lib/explore.server';
import { searchText } from '~/lib/media-views';
import { suggest } from '~/lib/suggestions';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const q = searchText(new URL(request.url).searchParams.get('q'));
  if (!q) return json({ suggestions: [] });
  try {
    const session = await requireSession(request, context, 'api');
    const { apiUrl } = context.config;
    const [people, places, things] = await Promise.all([
      listPeople(apiUrl, session.api).catch(() => []),
      listPlaces(apiUrl, session.api),
      listThings(apiUrl, session.api),
    ]);
    const suggestions = suggest(q, [
      ...people.filter((p) => !p.hidden).map((p) => ({ kind: 'person' as const, id: p.id, name: p.name })),
      ...places.map((p) => ({ kind: 'place' as const, id: p.id, name: p.name })),
      ...things.map((t) => ({ kind: 'thing' as const, id: t.id, name: t.name })),
    ]);
    return json({ suggestions }, { headers: await session.headers({ 'Cache-Control': 'no-store' }) });
  } catch (err) {
    throw apiFailure(err);
  }
}
