import { json } from '@remix-run/node';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { ApiError, ApiUnreachableError, ok } from '~/api/client.server';
import { EmptyTrash } from '~/components/EmptyTrash';
import type { Emptied } from '~/components/EmptyTrash';
import { MediaListPage } from '~/components/MediaListPage';
import { EmptyState } from '~/components/ui/EmptyState';
import { apiFailure, requireSession } from '~/lib/auth.server';
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

/** "Empty trash": the server empties it in one call and deletes the items in the background. */
export async function action({ request, context }: ActionFunctionArgs) {
  // The session first: nobody without one gets their body read.
  const session = await requireSession(request, context);
  const form = await request.formData();
  if (form.get('intent') !== 'empty') return json({ message: 'Unknown action.' }, { status: 400 });
  const answer = async (body: Emptied, status: number) => json(body, { status, headers: await session.headers() });
  try {
    const { count } = await ok(session.api.POST('/v1/trash/empty', {}));
    return await answer({ emptied: count, error: null }, 200);
  } catch (err) {
    if (!(err instanceof ApiError || err instanceof ApiUnreachableError)) throw err;
    // The API's refusal, as every page answers one, shown by the dialog rather than an error page.
    const refusal = apiFailure(err);
    const { message } = (await refusal.json()) as { message: string };
    return await answer({ emptied: null, error: message }, refusal.status);
  }
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
          <EmptyTrash offered={items.length > 0} />
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
