import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { MediaListPage } from '~/components/MediaListPage';
import { EmptyState } from '~/components/ui/EmptyState';
import { loadMediaPage } from '~/lib/media-page-loader.server';

export { RouteErrorBoundary as ErrorBoundary } from '~/components/ErrorPage';
export { keepOnViewerChange as shouldRevalidate } from '~/lib/revalidate';
export const meta: MetaFunction = () => [{ title: 'Hidden · Trove' }];

export function loader({ request, context }: LoaderFunctionArgs) {
  return loadMediaPage(request, context, { kind: 'hidden' });
}

export default function Hidden() {
  const { items, focus } = useLoaderData<typeof loader>();
  return (
    <MediaListPage
      title="Hidden"
      note={
        <p className="page-note">
          Hidden items stay out of Photos, Favourites and memories. They are still in your albums.
        </p>
      }
      view={{ kind: 'hidden' }}
      initial={items}
      focus={focus}
      label="Hidden photos and videos, newest first"
      bulk={['unhide', 'addToAlbum', 'download', 'trash']}
      empty={
        <EmptyState icon="hidden" title="Nothing hidden">
          <p>Items you hide from your library are kept here.</p>
        </EmptyState>
      }
    />
  );
}
