import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData, useRouteError } from '@remix-run/react';
import { ErrorPage } from '../components/ErrorPage';
import { Icon } from '../components/Icon';
import { MediaBrowser } from '../components/MediaBrowser';
import { loadMediaPage } from '../lib/pages.server';
import { keepOnViewerChange } from '../lib/revalidate';

export const meta: MetaFunction = () => [{ title: 'Hidden · Trove' }];
export const shouldRevalidate = keepOnViewerChange;

export function loader({ request, context }: LoaderFunctionArgs) {
  return loadMediaPage(request, context, { kind: 'hidden' });
}

export default function Hidden() {
  const { items, focus } = useLoaderData<typeof loader>();
  return (
    <>
      <div className="page-head">
        <h1>Hidden</h1>
        <p className="page-note">Hidden items stay out of Photos, Favourites and memories. They are still in your albums.</p>
      </div>
      <MediaBrowser
        view={{ kind: 'hidden' }}
        initial={items}
        focus={focus}
        label="Hidden photos and videos, newest first"
        bulk={['unhide', 'addToAlbum', 'trash']}
        empty={
          <>
            <Icon name="hidden" size={56} />
            <h2>Nothing hidden</h2>
            <p>Items you hide from your library are kept here.</p>
          </>
        }
      />
    </>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
