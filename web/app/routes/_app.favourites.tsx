import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData, useRouteError } from '@remix-run/react';
import { ErrorPage } from '../components/ErrorPage';
import { Icon } from '../components/Icon';
import { MediaBrowser } from '../components/MediaBrowser';
import { loadMediaPage } from '../lib/pages.server';
import { keepOnViewerChange } from '../lib/revalidate';

export const meta: MetaFunction = () => [{ title: 'Favourites · Trove' }];
export const shouldRevalidate = keepOnViewerChange;

export function loader({ request, context }: LoaderFunctionArgs) {
  return loadMediaPage(request, context, { kind: 'favourites' });
}

export default function Favourites() {
  const { items, focus } = useLoaderData<typeof loader>();
  return (
    <>
      <div className="page-head">
        <h1>Favourites</h1>
      </div>
      <MediaBrowser
        view={{ kind: 'favourites' }}
        initial={items}
        focus={focus}
        label="Favourite photos and videos, newest first"
        bulk={['unfavourite', 'addToAlbum', 'hide', 'trash']}
        empty={
          <>
            <Icon name="heartOutline" size={56} />
            <h2>No favourites yet</h2>
            <p>Open a photo and press the heart (or F) to find it here.</p>
          </>
        }
      />
    </>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
