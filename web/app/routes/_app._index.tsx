import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData, useNavigate } from '@remix-run/react';
import { useCallback } from 'react';
import { MediaListPage } from '~/components/MediaListPage';
import { Button } from '~/components/ui/Button';
import { EmptyState } from '~/components/ui/EmptyState';
import { Icon } from '~/components/ui/Icon';
import { useUploads } from '~/components/Uploads';
import { TimelineScrubber } from '~/components/TimelineScrubber';
import { useTimeline } from '~/hooks/useTimeline';
import { loadMediaPage } from '~/lib/media-page-loader.server';
import { keepOnSearchChange } from '~/lib/revalidate';
import { parseMonth } from '~/lib/timeline';

export { RouteErrorBoundary as ErrorBoundary } from '~/components/ErrorPage';
export const meta: MetaFunction = () => [{ title: 'Photos · Trove' }];

/**
 * The first page only (from `?at=YYYY-MM` when a link or a reload names a month): the timeline's
 * months are fetched by the browser once these are on screen (/api/timeline), never before them.
 */
export function loader({ request, context }: LoaderFunctionArgs) {
  const at = parseMonth(new URL(request.url).searchParams.get('at'));
  return loadMediaPage(request, context, at ? { kind: 'library', at } : { kind: 'library' }, { at });
}

/** A jump only writes `?at=` into the URL (for a reload or a link): the timeline is already in the browser. */
export const shouldRevalidate = keepOnSearchChange(['at']);

export default function Photos() {
  const { items, focus, at } = useLoaderData<typeof loader>();
  const uploads = useUploads();
  const navigate = useNavigate();
  const timeline = useTimeline({ initial: items, at });
  const { months, jump } = timeline;
  const onJump = useCallback(
    (month: string) => {
      const i = months.findIndex((m) => m.month === month);
      if (i < 0) return;
      jump(i);
      navigate(`?at=${month}`, { replace: true, preventScrollReset: true });
    },
    [months, jump, navigate],
  );
  return (
    <div className="with-timeline">
      {timeline.bucketsLoaded ? (
        <TimelineScrubber buckets={months} current={timeline.current} sections={timeline.layout} onJump={onJump} />
      ) : null}
      <MediaListPage
        title="Photos"
        view={{ kind: 'library' }}
        initial={items}
        focus={focus}
        memories
        label="All photos and videos, newest first"
        bulk={['favourite', 'addToAlbum', 'download', 'hide', 'trash']}
        showUploads
        timeline={timeline}
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
