import { UploadQueue, resultFromResponse } from './upload-queue';
import type { SendResult, Sender } from './upload-queue';

function file(name: string, size: number): File {
  return new File([new Uint8Array(size)], name, { type: 'image/jpeg' });
}

/** A sender whose uploads the test finishes by hand. */
function manualSender() {
  const calls: { file: File; progress(n: number): void; finish(r: SendResult): void; signal: AbortSignal }[] = [];
  const send: Sender = (f, onProgress, signal) =>
    new Promise<SendResult>((resolve) => {
      calls.push({ file: f, progress: onProgress, finish: resolve, signal });
    });
  return { send, calls };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('upload queue', () => {
  it('reports the files added for an album once they are in the library (new or already there), not failed ones', async () => {
    const { send, calls } = manualSender();
    const forAlbum: string[] = [];
    const q = new UploadQueue(send, 4, undefined, (albumId, id) => forAlbum.push(`${albumId}:${id}`));
    q.add([file('a.jpg', 10), file('b.jpg', 10), file('c.jpg', 10)], 'album-1');
    q.add([file('d.jpg', 10)]);
    calls[0].finish({ kind: 'created', id: 'new' });
    calls[1].finish({ kind: 'duplicate', id: 'old' });
    calls[2].finish({ kind: 'failed', message: 'nope' });
    calls[3].finish({ kind: 'created', id: 'library-only' });
    await tick();
    expect(forAlbum).toEqual(['album-1:new', 'album-1:old']);
    // A failed file retried still goes into its album.
    q.retryFailed();
    calls[4].finish({ kind: 'created', id: 'retried' });
    await tick();
    expect(forAlbum).toEqual(['album-1:new', 'album-1:old', 'album-1:retried']);
  });

  it('sends at most `concurrency` files at once and starts the next as one ends', async () => {
    const { send, calls } = manualSender();
    const q = new UploadQueue(send, 2);
    q.add([file('a.jpg', 10), file('b.jpg', 10), file('c.jpg', 10)]);
    expect(calls.map((c) => c.file.name)).toEqual(['a.jpg', 'b.jpg']);
    expect(q.getSnapshot().entries.map((e) => e.status)).toEqual(['uploading', 'uploading', 'queued']);
    calls[0].finish({ kind: 'created', id: 'id-a' });
    await tick();
    expect(calls.map((c) => c.file.name)).toEqual(['a.jpg', 'b.jpg', 'c.jpg']);
  });

  it('reports progress per file and overall', async () => {
    const { send, calls } = manualSender();
    const q = new UploadQueue(send, 3);
    q.add([file('a.jpg', 100), file('b.jpg', 300)]);
    calls[0].progress(50);
    calls[1].progress(150);
    const snap = q.getSnapshot();
    expect(snap.entries.map((e) => e.loaded)).toEqual([50, 150]);
    expect(snap.progress).toBeCloseTo(0.5);
    expect(snap.active).toBe(2);
  });

  it('ends each file as uploaded, already in the library (with the existing id) or failed, and retries failures', async () => {
    const { send, calls } = manualSender();
    const created: string[] = [];
    const q = new UploadQueue(send, 3, (id) => created.push(id));
    const listener = jest.fn();
    q.subscribe(listener);
    q.add([file('a.jpg', 10), file('b.jpg', 10), file('c.jpg', 10)]);
    calls[0].finish({ kind: 'created', id: 'new' });
    calls[1].finish({ kind: 'duplicate', id: 'old' });
    calls[2].finish({ kind: 'failed', message: 'File too large for this server' });
    await tick();
    const entries = q.getSnapshot().entries;
    expect(entries.map((e) => [e.status, e.mediaItemId ?? e.error])).toEqual([
      ['done', 'new'],
      ['duplicate', 'old'],
      ['failed', 'File too large for this server'],
    ]);
    expect(created).toEqual(['new']);
    expect(q.getSnapshot()).toMatchObject({ finished: 2, failed: 1, active: 0, progress: 1 });
    expect(listener).toHaveBeenCalled();

    q.retry(entries[2].key);
    expect(calls).toHaveLength(4);
    expect(q.getSnapshot().entries[2].status).toBe('uploading');
    calls[3].finish({ kind: 'created', id: 'again' });
    await tick();
    expect(q.getSnapshot().entries[2].status).toBe('done');
    q.clearFinished();
    expect(q.getSnapshot().entries).toEqual([]);
  });

  it('cancels a queued file at once and aborts one in flight', async () => {
    const { send, calls } = manualSender();
    const q = new UploadQueue(send, 1);
    q.add([file('a.jpg', 10), file('b.jpg', 10)]);
    const [a, b] = q.getSnapshot().entries;
    q.cancel(b.key);
    expect(q.getSnapshot().entries[1]).toMatchObject({ status: 'failed', error: 'Cancelled' });
    q.cancel(a.key);
    expect(calls[0].signal.aborted).toBe(true);
    calls[0].finish({ kind: 'failed', message: 'Cancelled' });
    await tick();
    expect(q.getSnapshot().active).toBe(0);
  });

  it('turns a thrown sender error into a failure', async () => {
    const q = new UploadQueue(() => Promise.reject(new Error('network down')), 1);
    q.add([file('a.jpg', 1)]);
    await tick();
    expect(q.getSnapshot().entries[0]).toMatchObject({ status: 'failed', error: 'network down' });
  });

  it('maps the answers of the upload route to results people understand', () => {
    expect(resultFromResponse(201, { id: 'x' })).toEqual({ kind: 'created', id: 'x' });
    expect(resultFromResponse(409, { message: 'mediaitem already exists', id: 'y' })).toEqual({
      kind: 'duplicate',
      id: 'y',
    });
    expect(resultFromResponse(400, { message: 'unsupported file type' })).toEqual({
      kind: 'failed',
      message: 'Not a photo or video Trove can read',
    });
    expect(resultFromResponse(413, { message: 'file too large' })).toEqual({
      kind: 'failed',
      message: 'File too large for this server',
    });
    expect(resultFromResponse(507, { message: 'storage quota exceeded' })).toEqual({
      kind: 'failed',
      message: 'Your storage is full (see Settings)',
    });
    expect(resultFromResponse(503, null)).toEqual({ kind: 'failed', message: 'Server unreachable, try again' });
    expect(resultFromResponse(500, { message: 'boom' })).toEqual({ kind: 'failed', message: 'Upload failed: boom' });
  });
});
