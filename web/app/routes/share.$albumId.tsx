import { json } from '@remix-run/node';
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { isRouteErrorResponse, useLoaderData, useRouteError } from '@remix-run/react';
import { ErrorPage } from '~/components/ErrorPage';
import { MediaBrowser } from '~/components/MediaBrowser';
import { StandalonePage } from '~/components/StandalonePage';
import { EmptyState } from '~/components/ui/EmptyState';
import { albumIdFrom, getSharedAlbum } from '~/lib/albums.server';
import { apiFailure } from '~/lib/auth.server';
import { plural } from '~/lib/format';
import { listView } from '~/lib/media-items.server';
import { visitorApi } from '~/lib/visitor.server';
import '~/styles/albums.css';
import '~/styles/shell.css';

export { keepOnViewerChange as shouldRevalidate } from '~/lib/revalidate';
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.album.name} · shared with Trove` : 'Shared album · Trove' },
  { name: 'robots', content: 'noindex' },
];

/** A shared album, for anyone with the link: no session involved at all. */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const id = albumIdFrom(params);
  try {
    // As the visitor: the gateway's sharing limits count per browser, not per web server.
    const api = visitorApi(context);
    const [album, items] = await Promise.all([
      getSharedAlbum(context.config.apiUrl, id, api),
      listView(context.config.apiUrl, api, { kind: 'shared', albumId: id }, 1),
    ]);
    return json({ album, items }, { headers: { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' } });
  } catch (err) {
    throw apiFailure(err);
  }
}

export default function SharedAlbum() {
  const { album, items } = useLoaderData<typeof loader>();
  return (
    <StandalonePage kind="shared">
      <div className="page-head">
        <p className="crumb">Shared album</p>
        <h1>{album.name}</h1>
        {album.description ? <p className="album-description">{album.description}</p> : null}
        <p className="muted" data-testid="album-count">
          {plural(album.mediaItemsCount, 'item')}
        </p>
      </div>
      <MediaBrowser
        view={{ kind: 'shared', albumId: album.id }}
        initial={items}
        label={`Photos and videos in ${album.name}`}
        empty={
          <EmptyState title="Nothing to see yet">
            <p>This album has no photos or videos.</p>
          </EmptyState>
        }
      />
    </StandalonePage>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <main className="error-page" aria-labelledby="error-title">
        <h1 id="error-title">This link does not work</h1>
        <p>The album it pointed to was deleted, or its owner stopped sharing it.</p>
      </main>
    );
  }
  return <ErrorPage error={error} />;
}
