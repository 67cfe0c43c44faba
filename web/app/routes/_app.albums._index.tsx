import { json, redirect } from '@remix-run/node';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteError, useSubmit } from '@remix-run/react';
import { useEffect, useId, useState } from 'react';
import type { Album } from '../api/types';
import { ErrorPage } from '../components/ErrorPage';
import { Icon } from '../components/Icon';
import { Modal } from '../components/Modal';
import { apiFailure, requireSession } from '../lib/auth.server';
import { ALBUM_SORTS, albumDescription, albumName, createAlbum, listAllAlbums, parseAlbumSort } from '../lib/albums.server';
import { plural } from '../lib/format';
import { placeholderDataUrl } from '../lib/thumbhash';

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
  const form = await request.formData();
  const name = albumName(form.get('name'));
  if (!name) return json({ error: 'Give the album a name (up to 200 characters).' }, { status: 400 });
  const session = await requireSession(request, context);
  try {
    const album = await createAlbum(context.config.apiUrl, session.api, name, albumDescription(form.get('description')));
    return redirect(`/albums/${album.id}`, { headers: await session.headers() });
  } catch (err) {
    throw apiFailure(err);
  }
}

function AlbumCard({ album }: { album: Album }) {
  const cover = album.coverMediaItem;
  const placeholder = placeholderDataUrl(cover?.placeholder);
  return (
    <li className="album-card">
      <Link to={`/albums/${album.id}`} className="album-link" prefetch="intent">
        <span className="album-cover" style={{ backgroundImage: placeholder ? `url(${placeholder})` : undefined }}>
          {cover ? <img src={cover.thumbnailUrl} alt="" loading="lazy" decoding="async" /> : <Icon name="album" size={40} />}
          {album.shared ? (
            <span className="badge badge-shared" title="Shared by link">
              <Icon name="share" size={14} />
              <span className="visually-hidden">Shared</span>
            </span>
          ) : null}
        </span>
        <span className="album-name">{album.name}</span>
        <span className="album-count muted">{plural(album.mediaItemsCount, 'item')}</span>
      </Link>
    </li>
  );
}

export default function Albums() {
  const { albums, sort, sorts } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [creating, setCreating] = useState(false);
  const navigation = useNavigation();
  const submit = useSubmit();
  const sortId = useId();
  useEffect(() => {
    if (actionData?.error) setCreating(true);
  }, [actionData]);

  return (
    <>
      <div className="page-head row">
        <h1>Albums</h1>
        <div className="page-tools">
          <Form method="get" className="sort-form" onChange={(e) => submit(e.currentTarget, { replace: true, preventScrollReset: true })}>
            <label htmlFor={sortId}>Sort by</label>
            <select id={sortId} name="sort" defaultValue={sort}>
              {sorts.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
            <noscript>
              <button type="submit" className="button small">
                Sort
              </button>
            </noscript>
          </Form>
          <button type="button" className="button primary" onClick={() => setCreating(true)}>
            <Icon name="plus" size={20} /> New album
          </button>
        </div>
      </div>
      {albums.length === 0 ? (
        <div className="empty">
          <Icon name="album" size={56} />
          <h2>No albums yet</h2>
          <p>Create one here, or select photos and choose “Add to album”.</p>
        </div>
      ) : (
        <ul className="album-grid" aria-label="Albums">
          {albums.map((a) => (
            <AlbumCard key={a.id} album={a} />
          ))}
        </ul>
      )}
      {creating ? (
        <Modal title="New album" onClose={() => setCreating(false)}>
          <Form method="post" className="stack">
            <label htmlFor="album-name">Name</label>
            <input id="album-name" name="name" required maxLength={200} autoFocus aria-invalid={actionData?.error ? true : undefined} aria-describedby={actionData?.error ? 'album-error' : undefined} />
            <label htmlFor="album-description">Description (optional)</label>
            <textarea id="album-description" name="description" maxLength={2000} rows={3} />
            {actionData?.error ? (
              <p id="album-error" className="form-error" role="alert">
                {actionData.error}
              </p>
            ) : null}
            <div className="form-actions">
              <button type="button" className="button" onClick={() => setCreating(false)}>
                Cancel
              </button>
              <button type="submit" className="button primary" disabled={navigation.state === 'submitting'}>
                Create album
              </button>
            </div>
          </Form>
        </Modal>
      ) : null}
    </>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
