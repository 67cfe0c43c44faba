import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { MediaListPage } from '~/components/MediaListPage';
import { EmptyState } from '~/components/ui/EmptyState';
import { loadMediaPage } from '~/lib/media-page-loader.server';

export { RouteErrorBoundary as ErrorBoundary } from '~/components/ErrorPage';
export { keepOnViewerChange as shouldRevalidate } from '~/lib/revalidate';
export const meta: MetaFunction = () => [{ title: 'Favourites · Trove' }];

export function loader({ request, context }: LoaderFunctionArgs) {
  return loadMediaPage(request, context, { kind: 'favourites' });
}

export default function Favourites() {
  const { items, focus } = useLoaderData<typeof loader>();
  return (
    <MediaListPage
      title="Favourites"
      view={{ kind: 'favourites' }}
      initial={items}
      focus={focus}
      label="Favourite photos and videos, newest first"
      bulk={['unfavourite', 'addToAlbum', 'download', 'hide', 'trash']}
      empty={
        <EmptyState icon="heartOutline" title="No favourites yet">
          <p>Open a photo and press the heart (or F) to find it here.</p>
        </EmptyState>
      }
    />
  );
}
