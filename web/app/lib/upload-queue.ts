/**
 * The upload queue: files wait their turn, at most `concurrency` are sent at once, each reports its
 * progress, and ends as uploaded, already in the library (409, with the existing item's id) or
 * failed (with the reason, and retry). Framework-free: the React side subscribes to snapshots.
 */

export type UploadStatus = 'queued' | 'uploading' | 'done' | 'duplicate' | 'failed';

export interface UploadEntry {
  key: string;
  name: string;
  size: number;
  loaded: number;
  status: UploadStatus;
  /** The new item (done) or the existing one (duplicate). */
  mediaItemId?: string;
  error?: string;
}

/** What sending one file ends with. */
export type SendResult =
  { kind: 'created'; id: string } | { kind: 'duplicate'; id: string } | { kind: 'failed'; message: string };

export type Sender = (file: File, onProgress: (loaded: number) => void, signal: AbortSignal) => Promise<SendResult>;

export interface UploadSnapshot {
  entries: readonly UploadEntry[];
  /** Bytes sent over bytes to send, of the files not failed (0–1). */
  progress: number;
  active: number;
  finished: number;
  failed: number;
}

export class UploadQueue {
  private entries: UploadEntry[] = [];
  private readonly files = new Map<string, File>();
  private readonly controllers = new Map<string, AbortController>();
  /** The album each file goes into too, when it was added on an album's page. */
  private readonly albums = new Map<string, string>();
  private readonly listeners = new Set<() => void>();
  private snapshot: UploadSnapshot = { entries: [], progress: 0, active: 0, finished: 0, failed: 0 };
  private seq = 0;

  constructor(
    private readonly send: Sender,
    private readonly concurrency = 3,
    /** Called once per file that ended as created (e.g. to refresh the grid). */
    private readonly onCreated: (id: string) => void = () => undefined,
    /** Called once per file added for an album that ended as created or already in the library. */
    private readonly onForAlbum: (albumId: string, id: string) => void = () => undefined,
  ) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): UploadSnapshot => this.snapshot;

  /** Queues files; with `albumId`, each also goes into that album once it is in the library. */
  add(files: Iterable<File>, albumId?: string): void {
    for (const file of files) {
      const key = `u${++this.seq}`;
      this.files.set(key, file);
      if (albumId) this.albums.set(key, albumId);
      this.entries.push({ key, name: file.name, size: file.size, loaded: 0, status: 'queued' });
    }
    this.changed();
    this.pump();
  }

  retry(key: string): void {
    const e = this.entries.find((x) => x.key === key);
    if (!e || e.status !== 'failed') return;
    this.patch(key, { status: 'queued', loaded: 0, error: undefined });
    this.pump();
  }

  retryFailed(): void {
    for (const e of this.entries)
      if (e.status === 'failed') this.patch(e.key, { status: 'queued', loaded: 0, error: undefined });
    this.pump();
  }

  cancel(key: string): void {
    const e = this.entries.find((x) => x.key === key);
    if (!e) return;
    if (e.status === 'uploading') this.controllers.get(key)?.abort();
    else if (e.status === 'queued') this.patch(key, { status: 'failed', error: 'Cancelled' });
  }

  /** Forgets finished entries (done and duplicates); failed ones stay for retry. */
  clearFinished(): void {
    this.entries = this.entries.filter((e) => {
      const keep = e.status !== 'done' && e.status !== 'duplicate';
      if (!keep) this.forget(e.key);
      return keep;
    });
    this.changed();
  }

  /** Forgets everything not in flight. */
  dismiss(): void {
    this.entries = this.entries.filter((e) => {
      const keep = e.status === 'uploading' || e.status === 'queued';
      if (!keep) this.forget(e.key);
      return keep;
    });
    this.changed();
  }

  private pump(): void {
    let active = this.entries.filter((e) => e.status === 'uploading').length;
    for (const e of this.entries) {
      if (active >= this.concurrency) break;
      if (e.status !== 'queued') continue;
      active++;
      void this.run(e.key);
    }
  }

  private async run(key: string): Promise<void> {
    const file = this.files.get(key);
    if (!file) return;
    const controller = new AbortController();
    this.controllers.set(key, controller);
    this.patch(key, { status: 'uploading', loaded: 0 });
    let result: SendResult;
    try {
      result = await this.send(
        file,
        (loaded) => this.patch(key, { loaded: Math.min(loaded, file.size) }),
        controller.signal,
      );
    } catch (err) {
      result = {
        kind: 'failed',
        message: controller.signal.aborted ? 'Cancelled' : err instanceof Error ? err.message : 'Upload failed',
      };
    }
    this.controllers.delete(key);
    const albumId = this.albums.get(key);
    if (result.kind === 'created') {
      this.patch(key, { status: 'done', loaded: file.size, mediaItemId: result.id });
      this.onCreated(result.id);
      if (albumId) this.onForAlbum(albumId, result.id);
    } else if (result.kind === 'duplicate') {
      this.patch(key, { status: 'duplicate', loaded: file.size, mediaItemId: result.id });
      // Already in the library: it still goes into the album it was dropped on.
      if (albumId) this.onForAlbum(albumId, result.id);
    } else {
      this.patch(key, { status: 'failed', error: result.message });
    }
    this.pump();
  }

  private forget(key: string): void {
    this.files.delete(key);
    this.albums.delete(key);
  }

  private patch(key: string, p: Partial<UploadEntry>): void {
    this.entries = this.entries.map((e) => (e.key === key ? { ...e, ...p } : e));
    this.changed();
  }

  private changed(): void {
    const live = this.entries.filter((e) => e.status !== 'failed');
    const total = live.reduce((s, e) => s + e.size, 0);
    const loaded = live.reduce((s, e) => s + e.loaded, 0);
    this.snapshot = {
      entries: this.entries,
      progress:
        total > 0
          ? loaded / total
          : live.length > 0 && live.every((e) => e.status === 'done' || e.status === 'duplicate')
            ? 1
            : 0,
      active: this.entries.filter((e) => e.status === 'uploading' || e.status === 'queued').length,
      finished: this.entries.filter((e) => e.status === 'done' || e.status === 'duplicate').length,
      failed: this.entries.filter((e) => e.status === 'failed').length,
    };
    for (const l of this.listeners) l();
  }
}

/** Maps the web server's answer to an upload (it relays the API's) to a result. */
export function resultFromResponse(status: number, body: unknown): SendResult {
  const b = (body && typeof body === 'object' ? body : {}) as { id?: unknown; message?: unknown };
  if (status === 201 && typeof b.id === 'string') return { kind: 'created', id: b.id };
  if (status === 409 && typeof b.id === 'string') return { kind: 'duplicate', id: b.id };
  const message = typeof b.message === 'string' ? b.message : '';
  if (status === 400 && /unsupported file type/i.test(message))
    return { kind: 'failed', message: 'Not a photo or video Trove can read' };
  if (status === 413) return { kind: 'failed', message: 'File too large for this server' };
  if (status === 507) return { kind: 'failed', message: 'Your storage is full (see Settings)' };
  if (status === 401) return { kind: 'failed', message: 'Your session ended: log in again' };
  if (status === 503 || status === 502 || status === 504 || status === 0)
    return { kind: 'failed', message: 'Server unreachable, try again' };
  return { kind: 'failed', message: message ? `Upload failed: ${message}` : `Upload failed (${status})` };
}
