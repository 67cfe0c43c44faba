import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { EmptyTrash } from '~/components/EmptyTrash';
import { MediaListPage } from '~/components/MediaListPage';
import { EmptyState } from '~/components/ui/EmptyState';
import { formatDuration } from '~/lib/format';
import { loadMediaPage } from '~/lib/media-page-loader.server';

export { RouteErrorBoundary as ErrorBoundary } from '~/components/ErrorPage';
export { keepOnViewerChange as shouldRevalidate } from '~/lib/revalidate';
export const meta: MetaFunction = () => [{ title: 'Trash · Trove' }];

export function loader({ request, context }: LoaderFunctionArgs) {
  return loadMediaPage(
    request,
    context,
    { kind: 'trash' },
    { retention: formatDuration(context.config.trashRetentionSeconds) },
  );
}

export default function Trash() {
  const { items, focus, retention } = useLoaderData<typeof loader>();
  return (
    <MediaListPage
      title="Trash"
      note={
        <div className="page-tools">
          <p className="page-note" id="retention">
            Items in the trash are deleted for good {retention} after they were moved here. Until then you can restore
            them: they go back to your library and albums.
          </p>
          {items.length > 0 ? <EmptyTrash /> : null}
        </div>
      }
      view={{ kind: 'trash' }}
      initial={items}
      focus={focus}
      label="Photos and videos in the trash, newest first"
      bulk={['restore', 'purge']}
      empty={
        <EmptyState icon="trash" title="The trash is empty">
          <p>Items you move to the trash stay here for {retention}.</p>
        </EmptyState>
      }
    />
  );
}
