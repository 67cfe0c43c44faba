import { json, redirect } from '@remix-run/node';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation, useSubmit } from '@remix-run/react';
import { useEffect, useId, useState } from 'react';
import { AlbumCard } from '~/components/AlbumCard';
import { AlbumDetailsDialog } from '~/components/AlbumDetailsDialog';
import { Button } from '~/components/ui/Button';
import { EmptyState } from '~/components/ui/EmptyState';
import { Icon } from '~/components/ui/Icon';
import {
  ALBUM_SORTS,
  albumDescription,
  albumName,
  createAlbum,
  listAllAlbums,
  parseAlbumSort,
} from '~/lib/albums.server';
import { apiFailure, requireSession } from '~/lib/auth.server';
import '~/styles/albums.css';

export { RouteErrorBoundary as ErrorBoundary } from '~/components/ErrorPage';
export const meta: MetaFunction = () => [{ title: 'Albums · Trove' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireSession(request, context);
  const sort = parseAlbumSort(new URL(request.url).searchParams.get('sort'));
  try {
    const albums = await listAllAlbums(context.config.apiUrl, session.api, sort);
    return json({ albums, sort, sorts: ALBUM_SORTS }, { headers: await session.headers() });
  } catch (err) {
    throw apiFailure(err);
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  // The session first: nobody without one gets their body read.
  const session = await requireSession(request, context);
  const form = await request.formData();
  const name = albumName(form.get('name'));
  if (!name) return json({ error: 'Give the album a name (up to 200 characters).' }, { status: 400 });
  try {
    const album = await createAlbum(
      context.config.apiUrl,
      session.api,
      name,
      albumDescription(form.get('description')),
    );
    return redirect(`/albums/${album.id}`, { headers: await session.headers() });
  } catch (err) {
    throw apiFailure(err);
  }
}

export default function Albums() {
  const { albums, sort, sorts } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [creating, setCreating] = useState(false);
  const navigation = useNavigation();
  const submit = useSubmit();
  const sortId = useId();
  const own = albums.filter((a) => a.role === 'owner');
  const shared = albums.filter((a) => a.role !== 'owner');
  useEffect(() => {
    if (actionData?.error) setCreating(true);
  }, [actionData]);

  return (
    <>
      <div className="page-head row">
        <h1>Albums</h1>
        <div className="page-tools">
          <Form
            method="get"
            className="sort-form"
            onChange={(e) => submit(e.currentTarget, { replace: true, preventScrollReset: true })}
          >
            <label htmlFor={sortId}>Sort by</label>
            <select id={sortId} name="sort" defaultValue={sort}>
              {sorts.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
            <noscript>
              <Button type="submit" size="small">
                Sort
              </Button>
            </noscript>
          </Form>
          <Button variant="primary" onClick={() => setCreating(true)}>
            <Icon name="plus" size={20} /> New album
          </Button>
        </div>
      </div>
      {own.length === 0 ? (
        <EmptyState icon="album" title="No albums yet">
          <p>Create one here, or select photos and choose “Add to album”.</p>
        </EmptyState>
      ) : (
        <ul className="album-grid" aria-label="Albums">
          {own.map((a) => (
            <AlbumCard key={a.id} album={a} />
          ))}
        </ul>
      )}
      {shared.length > 0 ? (
        <section aria-labelledby="shared-with-you">
          <h2 id="shared-with-you">Shared with you</h2>
          <ul className="album-grid" aria-label="Shared with you">
            {shared.map((a) => (
              <AlbumCard key={a.id} album={a} />
            ))}
          </ul>
        </section>
      ) : null}
      {creating ? (
        <AlbumDetailsDialog
          title="New album"
          submitLabel="Create album"
          error={actionData?.error}
          busy={navigation.state === 'submitting'}
          onClose={() => setCreating(false)}
        />
      ) : null}
    </>
  );
}
