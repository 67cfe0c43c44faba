import { json } from '@remix-run/node';
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { MediaListPage } from '~/components/MediaListPage';
import { EmptyState } from '~/components/ui/EmptyState';
import { requireSession } from '~/lib/auth.server';
import { loadMediaPage } from '~/lib/media-page-loader.server';
import { searchText } from '~/lib/media-views';

export { RouteErrorBoundary as ErrorBoundary } from '~/components/ErrorPage';
export { keepOnViewerChange as shouldRevalidate } from '~/lib/revalidate';
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.q ? `${data.q} · Search · Trove` : 'Search · Trove' },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const q = searchText(new URL(request.url).searchParams.get('q'));
  if (!q) {
    const session = await requireSession(request, context);
    return json({ q: null, items: [], focus: null }, { headers: await session.headers() });
  }
  return loadMediaPage(request, context, { kind: 'search', q }, { q });
}

export default function Search() {
  const { q, items, focus } = useLoaderData<typeof loader>();
  if (!q) {
    return (
      <EmptyState icon="search" title="Search your photos">
        <p>Type in the search box above (or press /): file names, descriptions, places, things and people.</p>
      </EmptyState>
    );
  }
  return (
    <MediaListPage
      key={q}
      title={`Results for “${q}”`}
      view={{ kind: 'search', q }}
      initial={items}
      focus={focus}
      label={`Photos and videos matching ${q}, newest first`}
      bulk={['favourite', 'addToAlbum', 'download', 'hide', 'trash']}
      empty={
        <EmptyState icon="search" title="Nothing found">
          <p>No photo or video matches “{q}”. Try fewer or other words.</p>
        </EmptyState>
      }
    />
  );
}
