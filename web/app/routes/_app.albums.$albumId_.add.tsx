import { redirect } from '@remix-run/node';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react';
import { useCallback, useEffect, useMemo, useReducer } from 'react';
import { ApiError } from '~/api/client.server';
import { MediaGrid } from '~/components/MediaGrid';
import { Button, buttonClass } from '~/components/ui/Button';
import { useMediaList } from '~/hooks/useMediaList';
import { useHeldInAlbum } from '~/hooks/useHeldInAlbum';
import { albumIdFrom, albumItemsHeld, requireAlbum } from '~/lib/albums.server';
import { apiFailure, requireSession } from '~/lib/auth.server';
import { plural } from '~/lib/format';
import { isUuid } from '~/lib/ids';
import { MAX_BULK, applyItemAction } from '~/lib/item-actions.server';
import { loadMediaPage } from '~/lib/media-page-loader.server';
import { emptySelection, selectionReducer } from '~/lib/selection';
import '~/styles/albums.css';

export { RouteErrorBoundary as ErrorBoundary } from '~/components/ErrorPage';
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Add to ${data?.album.name ?? 'album'} · Trove` },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const album = await requireAlbum(request, context, params);
  return loadMediaPage(request, context, { kind: 'library' }, async (api, items) => {
    const asked = items.map((i) => i.id);
    return {
      album: { id: album.id, name: album.name },
      // An item of the page gone meanwhile answers 404: the picker then asks again in the background.
      held: await albumItemsHeld(api, album.id, asked).then(
        (held) => ({ asked, held }),
        (err: unknown) => {
          if (err instanceof ApiError && err.status === 404) return { asked: [] as string[], held: [] as string[] };
          throw err;
        },
      ),
    };
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const albumId = albumIdFrom(params);
  // The session first: nobody without one gets their body read.
  const session = await requireSession(request, context);
  const form = await request.formData();
  const ids = form.getAll('id').filter(isUuid).slice(0, MAX_BULK);
  if (ids.length === 0) return redirect(`/albums/${albumId}`);
  try {
    await applyItemAction(session.api, { intent: 'addToAlbum', albumId, ids });
    return redirect(`/albums/${albumId}`, { headers: await session.headers() });
  } catch (err) {
    throw apiFailure(err);
  }
}

/** Picks items from the library to add to an album. */
export default function AddToAlbum() {
  const { album, items, held: heldAtLoad } = useLoaderData<typeof loader>();
  const list = useMediaList({ viewQuery: 'view=library', initial: items, order: 'newest' });
  const [selection, dispatch] = useReducer(selectionReducer, emptySelection);
  const held = useHeldInAlbum(album.id, list.items, heldAtLoad);
  const locked = useMemo(() => ({ ids: held, label: 'In this album' }), [held]);
  // An item found to be in the album already leaves the selection (it was selected before the answer came).
  useEffect(() => {
    if (held.size > 0)
      dispatch({ type: 'retain', ids: new Set(list.items.map((i) => i.id).filter((id) => !held.has(id))) });
  }, [held, list.items]);
  const toggle = useCallback((id: string) => (held.has(id) ? undefined : dispatch({ type: 'toggle', id })), [held]);
  const navigation = useNavigation();
  const count = selection.ids.size;
  return (
    <>
      <Form method="post" className="page-head picker-head">
        <p className="crumb">
          <Link to={`/albums/${album.id}`}>{album.name}</Link>
        </p>
        <h1>Add to “{album.name}”</h1>
        <p className="muted">
          Click photos and videos to select them (Shift+click selects a range). Those marked “In this album” are in it
          already.
        </p>
        {[...selection.ids].map((id) => (
          <input key={id} type="hidden" name="id" value={id} />
        ))}
        <div className="album-tools">
          <Button type="submit" variant="primary" disabled={count === 0 || navigation.state !== 'idle'}>
            {count === 0 ? 'Add' : `Add ${plural(count, 'item')}`}
          </Button>
          <Link to={`/albums/${album.id}`} className={buttonClass()}>
            Cancel
          </Link>
        </div>
      </Form>
      <MediaGrid
        items={list.items}
        grouping="day"
        label="Your library: select items to add"
        selection={{ ids: selection.ids, dispatch }}
        hrefFor={(id) => `/?item=${id}`}
        // Everything selects here: a click never opens the viewer.
        onOpen={toggle}
        onNearEnd={list.complete ? undefined : list.loadMore}
        locked={locked}
      />
    </>
  );
}
