import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData, useRouteError } from '@remix-run/react';
import { ErrorPage } from '../components/ErrorPage';
import { Icon } from '../components/Icon';
import { MediaBrowser } from '../components/MediaBrowser';
import { useUploads } from '../components/Uploads';
import { loadMediaPage } from '../lib/pages.server';
import { keepOnViewerChange } from '../lib/revalidate';

export const meta: MetaFunction = () => [{ title: 'Photos · Trove' }];
export const shouldRevalidate = keepOnViewerChange;

export function loader({ request, context }: LoaderFunctionArgs) {
  return loadMediaPage(request, context, { kind: 'library' });
}

export default function Photos() {
  const { items, focus } = useLoaderData<typeof loader>();
  const uploads = useUploads();
  return (
    <>
      <div className="page-head">
        <h1>Photos</h1>
      </div>
      <MediaBrowser
        view={{ kind: 'library' }}
        initial={items}
        focus={focus}
        memories
        label="All photos and videos, newest first"
        bulk={['favourite', 'addToAlbum', 'hide', 'trash']}
        showUploads
        empty={
          <>
            <Icon name="photos" size={56} />
            <h2>No photos yet</h2>
            <p>Drop photos and videos anywhere on this page, or choose them from your device.</p>
            <button type="button" className="button primary" onClick={uploads.openPicker}>
              <Icon name="upload" size={20} /> Upload
            </button>
          </>
        }
      />
    </>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
