import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData, useRouteError } from '@remix-run/react';
import { ErrorPage } from '../components/ErrorPage';
import { Icon } from '../components/Icon';
import { MediaBrowser } from '../components/MediaBrowser';
import { formatDuration } from '../lib/format';
import { loadMediaPage } from '../lib/pages.server';
import { keepOnViewerChange } from '../lib/revalidate';

export const meta: MetaFunction = () => [{ title: 'Trash · Trove' }];
export const shouldRevalidate = keepOnViewerChange;

export function loader({ request, context }: LoaderFunctionArgs) {
  return loadMediaPage(request, context, { kind: 'trash' }, { retention: formatDuration(context.config.trashRetentionSeconds) });
}

export default function Trash() {
  const { items, focus, retention } = useLoaderData<typeof loader>();
  return (
    <>
      <div className="page-head">
        <h1>Trash</h1>
        <p className="page-note" id="retention">
          Items in the trash are deleted for good {retention} after they were moved here. Until then you can restore them: they go back to
          your library and albums.
        </p>
      </div>
      <MediaBrowser
        view={{ kind: 'trash' }}
        initial={items}
        focus={focus}
        label="Photos and videos in the trash, newest first"
        bulk={['restore']}
        empty={
          <>
            <Icon name="trash" size={56} />
            <h2>The trash is empty</h2>
            <p>Items you move to the trash stay here for {retention}.</p>
          </>
        }
      />
    </>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
