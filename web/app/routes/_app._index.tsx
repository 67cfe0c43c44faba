import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData, useNavigate } from '@remix-run/react';
import { MediaListPage } from '~/components/MediaListPage';
import { Button } from '~/components/ui/Button';
import { EmptyState } from '~/components/ui/EmptyState';
import { Icon } from '~/components/ui/Icon';
import { useUploads } from '~/components/Uploads';
import { TimelineScrubber } from '~/components/TimelineScrubber';
import { timelineBuckets } from '~/lib/media-items.server';
import { loadMediaPage } from '~/lib/media-page-loader.server';
import { parseMonth } from '~/lib/timeline';

export { RouteErrorBoundary as ErrorBoundary } from '~/components/ErrorPage';
export { keepOnViewerChange as shouldRevalidate } from '~/lib/revalidate';
export const meta: MetaFunction = () => [{ title: 'Photos · Trove' }];

/** `?at=YYYY-MM`: the list starts at that month (a jump through the timeline); a reload keeps it. */
export function loader({ request, context }: LoaderFunctionArgs) {
  const at = parseMonth(new URL(request.url).searchParams.get('at'));
  return loadMediaPage(request, context, at ? { kind: 'library', at } : { kind: 'library' }, async (api) => ({
    at,
    buckets: await timelineBuckets(api),
  }));
}

export default function Photos() {
  const { items, focus, at, buckets } = useLoaderData<typeof loader>();
  const uploads = useUploads();
  const navigate = useNavigate();
  return (
    <div className="with-timeline">
      <TimelineScrubber buckets={buckets} at={at} onJump={(month) => navigate(`?at=${month}`)} />
      <MediaListPage
        // A jump starts the list afresh at its month.
        key={at ?? 'newest'}
        title="Photos"
        view={at ? { kind: 'library', at } : { kind: 'library' }}
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
    </div>
  );
}
