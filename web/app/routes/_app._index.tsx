import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { MediaListPage } from '~/components/MediaListPage';
import { Button } from '~/components/ui/Button';
import { EmptyState } from '~/components/ui/EmptyState';
import { Icon } from '~/components/ui/Icon';
import { useUploads } from '~/components/Uploads';
import { loadMediaPage } from '~/lib/media-page-loader.server';

export { RouteErrorBoundary as ErrorBoundary } from '~/components/ErrorPage';
export { keepOnViewerChange as shouldRevalidate } from '~/lib/revalidate';
export const meta: MetaFunction = () => [{ title: 'Photos · Trove' }];

export function loader({ request, context }: LoaderFunctionArgs) {
  return loadMediaPage(request, context, { kind: 'library' });
}

export default function Photos() {
  const { items, focus } = useLoaderData<typeof loader>();
  const uploads = useUploads();
  return (
    <MediaListPage
      title="Photos"
      view={{ kind: 'library' }}
      initial={items}
      focus={focus}
      memories
      label="All photos and videos, newest first"
      bulk={['favourite', 'addToAlbum', 'hide', 'trash']}
      showUploads
      empty={
        <EmptyState icon="photos" title="No photos yet">
          <p>Drop photos and videos anywhere on this page, or choose them from your device.</p>
          <Button variant="primary" onClick={uploads.openPicker}>
            <Icon name="upload" size={20} /> Upload
          </Button>
        </EmptyState>
      }
    />
  );
}
