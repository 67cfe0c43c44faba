import { json, redirect } from '@remix-run/node';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigation, useRevalidator, useRouteError } from '@remix-run/react';
import { useEffect, useId, useRef, useState } from 'react';
import { ErrorPage } from '../components/ErrorPage';
import { Icon } from '../components/Icon';
import { MediaBrowser } from '../components/MediaBrowser';
import { Modal } from '../components/Modal';
import { apiFailure, requireSession } from '../lib/auth.server';
import { albumDescription, albumName, deleteAlbum, getAlbum, updateAlbum } from '../lib/albums.server';
import { plural } from '../lib/format';
import { isUuid } from '../lib/media.server';
import { loadMediaPage } from '../lib/pages.server';
import { keepOnViewerChange } from '../lib/revalidate';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.album.name ?? 'Album'} · Trove` }];
export const shouldRevalidate = keepOnViewerChange;

function albumIdOf(params: { albumId?: string }): string {
  if (!isUuid(params.albumId)) throw json({ message: 'Not found' }, { status: 404 });
  return params.albumId;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const id = albumIdOf(params);
  const session = await requireSession(request, context);
  const album = await getAlbum(context.config.apiUrl, session.api, id).catch((err: unknown) => {
    throw apiFailure(err);
  });
  const origin = new URL(request.url).origin;
  return loadMediaPage(request, context, { kind: 'album', albumId: id }, { album, shareUrl: `${origin}/share/${id}` });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const id = albumIdOf(params);
  const form = await request.formData();
  const intent = form.get('intent');
  const session = await requireSession(request, context);
  try {
    switch (intent) {
      case 'edit': {
        const name = albumName(form.get('name'));
        if (!name) return json({ error: 'Give the album a name (up to 200 characters).' }, { status: 400 });
        await updateAlbum(session.api, id, { name, description: albumDescription(form.get('description')) });
        break;
      }
      case 'share':
        await updateAlbum(session.api, id, { shared: form.get('shared') === 'true' });
        break;
      case 'delete':
        await deleteAlbum(session.api, id);
        return redirect('/albums', { headers: await session.headers() });
      default:
        return json({ error: 'Unknown action.' }, { status: 400 });
    }
    return json({ error: null }, { headers: await session.headers() });
  } catch (err) {
    throw apiFailure(err);
  }
}

function ShareControl({ shared, url }: { shared: boolean; url: string }) {
  const fetcher = useFetcher();
  const pending = fetcher.formData?.get('shared');
  const on = pending !== undefined && pending !== null ? pending === 'true' : shared;
  const [copied, setCopied] = useState(false);
  const linkRef = useRef<HTMLInputElement>(null);
  const linkId = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      // No clipboard permission (or http on another host): select the text for Ctrl+C.
      linkRef.current?.select();
      document.execCommand?.('copy');
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2500);
  };
  return (
    <div className="share">
      <fetcher.Form method="post" className="share-toggle">
        <input type="hidden" name="intent" value="share" />
        <input type="hidden" name="shared" value={on ? 'false' : 'true'} />
        <button type="submit" role="switch" aria-checked={on} className="switch" disabled={fetcher.state !== 'idle'}>
          <span className="switch-track" aria-hidden="true">
            <span className="switch-thumb" />
          </span>
          <span>Share by link</span>
        </button>
      </fetcher.Form>
      {on ? (
        <div className="share-link">
          <label htmlFor={linkId} className="visually-hidden">
            Public link
          </label>
          <input id={linkId} ref={linkRef} readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
          <button type="button" className="button small" onClick={() => void copy()}>
            <Icon name="copy" size={18} /> {copied ? 'Copied' : 'Copy link'}
          </button>
          <span className="muted share-hint">Anyone with the link can see this album’s photos and videos, without logging in. Hidden items are left out.</span>
        </div>
      ) : null}
    </div>
  );
}

export default function AlbumPage() {
  const { album, items, focus, shareUrl } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);

  useEffect(() => {
    if (navigation.state === 'idle' && actionData && !actionData.error) setEditing(false);
  }, [navigation.state, actionData]);

  return (
    <>
      <div className="page-head album-head">
        <p className="crumb">
          <Link to="/albums">Albums</Link>
        </p>
        <h1>{album.name}</h1>
        {album.description ? <p className="album-description">{album.description}</p> : null}
        <p className="muted" data-testid="album-count">
          {plural(album.mediaItemsCount, 'item')}
        </p>
        <div className="album-tools">
          <Link to={`/albums/${album.id}/add`} className="button primary">
            <Icon name="plus" size={20} /> Add photos
          </Link>
          <button type="button" className="button" onClick={() => setEditing(true)}>
            <Icon name="edit" size={20} /> Edit
          </button>
          <button type="button" className="button danger" onClick={() => setDeleting(true)}>
            <Icon name="trash" size={20} /> Delete album
          </button>
        </div>
        <ShareControl key={String(album.shared)} shared={album.shared} url={shareUrl} />
      </div>

      <MediaBrowser
        key={album.id}
        view={{ kind: 'album', albumId: album.id }}
        initial={items}
        focus={focus}
        label={`Photos and videos in ${album.name}`}
        bulk={['removeFromAlbum', 'setCover', 'favourite', 'addToAlbum', 'trash']}
        onAlbumChanged={() => revalidator.revalidate()}
        empty={
          <>
            <Icon name="album" size={56} />
            <h2>This album is empty</h2>
            <p>Add photos from your library, or select some in Photos and choose “Add to album”.</p>
            <Link to={`/albums/${album.id}/add`} className="button primary">
              Add photos
            </Link>
          </>
        }
      />

      {editing ? (
        <Modal title="Edit album" onClose={() => setEditing(false)}>
          <Form method="post" className="stack">
            <input type="hidden" name="intent" value="edit" />
            <label htmlFor="edit-name">Name</label>
            <input id="edit-name" name="name" required maxLength={200} defaultValue={album.name} autoFocus />
            <label htmlFor="edit-description">Description</label>
            <textarea id="edit-description" name="description" maxLength={2000} rows={4} defaultValue={album.description ?? ''} />
            {actionData?.error ? (
              <p className="form-error" role="alert">
                {actionData.error}
              </p>
            ) : null}
            <div className="form-actions">
              <button type="button" className="button" onClick={() => setEditing(false)}>
                Cancel
              </button>
              <button type="submit" className="button primary" disabled={navigation.state === 'submitting'}>
                Save
              </button>
            </div>
          </Form>
        </Modal>
      ) : null}

      {deleting ? (
        <Modal title="Delete this album?" onClose={() => setDeleting(false)}>
          <p>“{album.name}” will be deleted. Its photos and videos stay in your library.</p>
          <Form method="post" className="form-actions">
            <input type="hidden" name="intent" value="delete" />
            <button type="button" className="button" onClick={() => setDeleting(false)}>
              Cancel
            </button>
            <button type="submit" className="button danger">
              Delete album
            </button>
          </Form>
        </Modal>
      ) : null}
    </>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
