import { Link } from '@remix-run/react';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import type { ReactNode } from 'react';
import { postJson } from '~/lib/fetch-json.client';
import { formatBytes, plural } from '~/lib/format';
import { UploadQueue } from '~/lib/upload-queue';
import type { Sender, UploadEntry, UploadSnapshot } from '~/lib/upload-queue';
import { sendFile } from '~/lib/upload-sender.client';
import { Button, IconButton, TextButton } from './ui/Button';
import { Icon } from './ui/Icon';
import './Uploads.css';

/** Files sent at the same time. */
export const UPLOADS_IN_FLIGHT = 3;
const ACCEPT =
  'image/*,video/*,.heic,.heif,.avif,.jxl,.dng,.cr2,.cr3,.nef,.arw,.orf,.rw2,.rwl,.raf,.mrw,.crw,.x3f,.pef,.nrw,.srw,.3fr,.dcr,.kdc,.erf,.mef,.iiq,.mkv,.avi,.3gp,.3g2,.m4v,.mts,.m2ts,.m2t';
/** To the web server, which relays the file to the API. `sendFile` is browser-only (undefined on the server), so it is looked up when a file is sent, never while rendering. */
const sendToServer: Sender = (file, onProgress, signal) => sendFile('/api/upload', file, onProgress, signal);

/** An album whose page is open: what is uploaded there goes into it too. */
export interface UploadTarget {
  albumId: string;
  name: string;
}

interface UploadsApi {
  add(files: Iterable<File>): void;
  openPicker(): void;
  /** Calls `listener` with the id of every item created by an upload; returns the unsubscribe. */
  onCreated(listener: (id: string) => void): () => void;
  /** Where uploads go besides the library (null: the library only). */
  setTarget(target: UploadTarget | null): void;
  /** Calls `listener` with the album and item each time an upload went into an album; returns the unsubscribe. */
  onAddedToAlbum(listener: (albumId: string, id: string) => void): () => void;
}

const UploadsContext = createContext<UploadsApi | null>(null);

export function useUploads(): UploadsApi {
  const api = useContext(UploadsContext);
  if (!api) throw new Error('useUploads outside UploadProvider');
  return api;
}

/** Listens for items created by uploads (e.g. to show them in the grid). */
export function useUploadCreated(listener: (id: string) => void) {
  // Outside the signed-in app (shared albums) there are no uploads: nothing to listen to.
  const api = useContext(UploadsContext);
  const ref = useRef(listener);
  ref.current = listener;
  useEffect(() => api?.onCreated((id) => ref.current(id)), [api]);
}

/** While the calling page is shown, uploads go into `target`'s album too (null: the library only). */
export function useUploadTarget(target: UploadTarget | null) {
  const api = useContext(UploadsContext);
  const albumId = target?.albumId;
  const name = target?.name;
  useEffect(() => {
    if (!api || !albumId || name === undefined) return;
    api.setTarget({ albumId, name });
    return () => api.setTarget(null);
  }, [api, albumId, name]);
}

/** Listens for uploads that went into `albumId` (e.g. to show them on its page). */
export function useUploadAddedToAlbum(albumId: string | null, listener: (id: string) => void) {
  const api = useContext(UploadsContext);
  const ref = useRef(listener);
  ref.current = listener;
  useEffect(
    () => (albumId ? api?.onAddedToAlbum((album, id) => album === albumId && ref.current(id)) : undefined),
    [api, albumId],
  );
}

/** The upload queue of the signed-in app, its file picker, drag-and-drop anywhere, and the progress panel. */
export function UploadProvider({ children }: { children: ReactNode }) {
  const listeners = useRef(new Set<(id: string) => void>());
  const albumListeners = useRef(new Set<(albumId: string, id: string) => void>());
  const [queue] = useState(
    () =>
      new UploadQueue(
        sendToServer,
        UPLOADS_IN_FLIGHT,
        (id) => listeners.current.forEach((l) => l(id)),
        (albumId, id) =>
          // Into the album it was dropped on; should that fail (the member left it), it stays in the library.
          void postJson('/api/items', { intent: 'addToAlbum', albumId, ids: [id] }).then(
            () => albumListeners.current.forEach((l) => l(albumId, id)),
            () => undefined,
          ),
      ),
  );
  const input = useRef<HTMLInputElement>(null);
  const [target, setTarget] = useState<UploadTarget | null>(null);
  const targetRef = useRef(target);
  targetRef.current = target;

  const api = useMemo<UploadsApi>(
    () => ({
      add: (files) => queue.add(files, targetRef.current?.albumId),
      openPicker: () => input.current?.click(),
      onCreated: (l) => {
        listeners.current.add(l);
        return () => listeners.current.delete(l);
      },
      setTarget,
      onAddedToAlbum: (l) => {
        albumListeners.current.add(l);
        return () => albumListeners.current.delete(l);
      },
    }),
    [queue],
  );

  return (
    <UploadsContext.Provider value={api}>
      {children}
      <input
        ref={input}
        type="file"
        multiple
        accept={ACCEPT}
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="upload-input"
        onChange={(e) => {
          if (e.target.files?.length) api.add(Array.from(e.target.files));
          e.target.value = '';
        }}
      />
      <DropZone onFiles={api.add} album={target?.name ?? null} />
      <UploadPanel queue={queue} />
    </UploadsContext.Provider>
  );
}

function hasFiles(e: DragEvent): boolean {
  return !!e.dataTransfer && Array.from(e.dataTransfer.types).includes('Files');
}

/** Drop files anywhere on the page: an overlay says where they go while dragging. */
function DropZone({ onFiles, album }: { onFiles(files: File[]): void; album: string | null }) {
  const [active, setActive] = useState(false);
  const depth = useRef(0);
  useEffect(() => {
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth.current++;
      setActive(true);
    };
    const over = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setActive(false);
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth.current = 0;
      setActive(false);
      const files = Array.from(e.dataTransfer?.files ?? []);
      if (files.length) onFiles(files);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, [onFiles]);
  if (!active) return null;
  return (
    <div className="drop-overlay" aria-hidden="true">
      <div className="drop-message">
        <Icon name="upload" size={48} />
        <p>
          {album ? `Drop photos and videos to upload them into “${album}”` : 'Drop photos and videos to upload them'}
        </p>
      </div>
    </div>
  );
}

function statusText(e: UploadEntry): string {
  switch (e.status) {
    case 'queued':
      return 'Waiting';
    case 'uploading':
      return e.size ? `${Math.round((e.loaded / e.size) * 100)}%` : 'Uploading';
    case 'done':
      return 'Uploaded';
    case 'duplicate':
      return 'Already in your library';
    case 'failed':
      return e.error ?? 'Failed';
  }
}

export function UploadPanel({ queue }: { queue: UploadQueue }) {
  const snap: UploadSnapshot = useSyncExternalStore(queue.subscribe, queue.getSnapshot, queue.getSnapshot);
  const [collapsed, setCollapsed] = useState(false);
  const dismiss = useCallback(() => queue.dismiss(), [queue]);
  if (snap.entries.length === 0) return null;
  const total = snap.entries.length;
  const percent = Math.round(snap.progress * 100);
  const heading =
    snap.active > 0
      ? `Uploading ${plural(total - snap.finished - snap.failed, 'item')} · ${percent}%`
      : snap.failed > 0
        ? `${plural(snap.failed, 'upload')} failed`
        : `${plural(snap.finished, 'item')} uploaded`;
  return (
    <section className="upload-panel" aria-label="Uploads">
      <div className="upload-head">
        <h2 aria-live="polite">{heading}</h2>
        <IconButton
          icon={collapsed ? 'left' : 'right'}
          iconSize={20}
          iconClassName="rot90"
          size="small"
          aria-expanded={!collapsed}
          label={collapsed ? 'Show uploads' : 'Hide upload details'}
          onClick={() => setCollapsed((c) => !c)}
        />
        {snap.active === 0 ? (
          <IconButton icon="close" iconSize={20} size="small" label="Close uploads" onClick={dismiss} />
        ) : null}
      </div>
      <progress className="upload-total" max={100} value={percent} aria-label="All uploads">
        {percent}%
      </progress>
      {!collapsed ? (
        <ul className="upload-list">
          {snap.entries.map((e) => (
            <li key={e.key} className={`upload-entry ${e.status}`} data-status={e.status}>
              <div className="upload-line">
                <span className="upload-name" title={e.name}>
                  {e.name}
                </span>
                <span className="upload-size muted">{formatBytes(e.size)}</span>
              </div>
              <progress
                max={e.size || 1}
                value={
                  e.status === 'queued'
                    ? 0
                    : e.status === 'failed'
                      ? e.loaded
                      : e.status === 'uploading'
                        ? e.loaded
                        : e.size || 1
                }
                aria-label={`Upload of ${e.name}`}
              />
              <div className="upload-line">
                <span className="upload-status">{statusText(e)}</span>
                {e.status === 'duplicate' && e.mediaItemId ? (
                  <Link to={`/?item=${e.mediaItemId}`} className="upload-link">
                    Show it
                  </Link>
                ) : null}
                {e.status === 'failed' ? (
                  <Button size="small" onClick={() => queue.retry(e.key)} aria-label={`Retry upload of ${e.name}`}>
                    Retry
                  </Button>
                ) : null}
                {e.status === 'queued' || e.status === 'uploading' ? (
                  <TextButton onClick={() => queue.cancel(e.key)} aria-label={`Cancel upload of ${e.name}`}>
                    Cancel
                  </TextButton>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
