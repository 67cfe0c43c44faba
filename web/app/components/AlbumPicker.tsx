import { useEffect, useId, useState } from 'react';
import type { Album } from '~/api/types';
import { getJson, postJson } from '~/lib/fetch-json.client';
import { plural } from '~/lib/format';
import { Button } from './ui/Button';
import { FormError } from './ui/FormError';
import { Modal } from './ui/Modal';
import './AlbumPicker.css';

export interface AlbumPickerProps {
  ids: string[];
  onClose(): void;
  /** After the items were added (to an existing or a new album). */
  onAdded(album: Pick<Album, 'id' | 'name'>, count: number): void;
}

/** "Add to album": pick one of the albums (most recently changed first) or create one with the items. */
export function AlbumPicker({ ids, onClose, onAdded }: AlbumPickerProps) {
  const [albums, setAlbums] = useState<Album[] | null>(null);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const nameId = useId();

  useEffect(() => {
    const controller = new AbortController();
    getJson<{ albums: Album[] }>('/api/albums', controller.signal)
      .then((r) => setAlbums(r.albums))
      .catch(
        (err: unknown) =>
          !controller.signal.aborted && setError(err instanceof Error ? err.message : 'Could not load your albums.'),
      );
    return () => controller.abort();
  }, []);

  const run = async (work: () => Promise<Pick<Album, 'id' | 'name'>>) => {
    setBusy(true);
    setError(null);
    try {
      const album = await work();
      onAdded(album, ids.length);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'That did not work.');
      setBusy(false);
    }
  };

  return (
    <Modal title={`Add ${plural(ids.length, 'item')} to an album`} onClose={onClose} className="album-picker">
      <form
        className="new-album"
        onSubmit={(e) => {
          e.preventDefault();
          if (!name.trim()) return;
          void run(async () => (await postJson<{ album: Album }>('/api/albums', { name: name.trim(), ids })).album);
        }}
      >
        <label htmlFor={nameId}>New album</label>
        <div className="inline-form">
          <input
            id={nameId}
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={200}
            placeholder="Album name"
            required
          />
          <Button type="submit" variant="primary" disabled={busy || !name.trim()}>
            Create
          </Button>
        </div>
      </form>
      <FormError>{error}</FormError>
      <h3 className="picker-heading">Albums</h3>
      {albums === null && !error ? <p className="muted">Loading albums…</p> : null}
      {albums?.length === 0 ? <p className="muted">No albums yet: create one above.</p> : null}
      <ul className="picker-list">
        {albums?.map((a) => (
          <li key={a.id}>
            <button
              type="button"
              className="picker-album"
              disabled={busy}
              onClick={() =>
                void run(async () => {
                  await postJson('/api/items', { intent: 'addToAlbum', albumId: a.id, ids });
                  return a;
                })
              }
            >
              {a.coverMediaItem ? (
                <img src={a.coverMediaItem.thumbnailUrl} alt="" width={48} height={48} />
              ) : (
                <span className="picker-cover-empty" aria-hidden="true" />
              )}
              <span className="picker-name">{a.name}</span>
              <span className="muted">
                {plural(a.mediaItemsCount, 'item')}
                {a.role === 'owner' ? '' : ` · ${a.owner.name}’s`}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
