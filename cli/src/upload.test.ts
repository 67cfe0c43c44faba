/**
 * The upload's rules with an in-memory library (what it holds, by content): batching of the exist calls, re-runs,
 * the same content twice, albums, failures. The real server is the e2e suite's (e2e/cli).
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { UploadSource } from './api';
import { HttpError } from './retry';
import type { Outcome, Reporter } from './report';
import { Readable } from 'node:stream';
import { sendAll, upload } from './upload';
import type { Library } from './upload';

class MemoryLibrary implements Library {
  readonly items = new Map<string, string>(); // sha256 → id
  readonly albumItems = new Map<string, string[]>(); // album name → ids
  readonly existCalls: number[] = [];
  readonly failing = new Set<string>(); // file names answered 500 for good
  uploads = 0;

  async existing(sha256: string[]) {
    if (sha256.length > 1000) throw new Error('too many');
    this.existCalls.push(sha256.length);
    return new Map(sha256.filter((s) => this.items.has(s)).map((s) => [s, this.items.get(s)!]));
  }
  async upload(source: UploadSource, onBytes: (n: number) => void) {
    if (this.failing.has(source.name)) throw new HttpError(500, 'internal error');
    if (source.name.endsWith('.ts')) throw new HttpError(400, '400 unsupported file type');
    const data = Buffer.concat(await (await source.open()).toArray());
    const sha = createHash('sha256').update(data).digest('hex');
    onBytes(data.length);
    this.uploads++;
    const had = this.items.get(sha);
    if (had) return { id: had, duplicate: true };
    const id = randomUUID();
    this.items.set(sha, id);
    return { id, duplicate: false };
  }
  async albums() {
    return [...this.albumItems.keys()].map((name) => ({ id: `album:${name}`, name }));
  }
  async createAlbum(name: string) {
    this.albumItems.set(name, []);
    return { id: `album:${name}`, name };
  }
  async addToAlbum(albumId: string, ids: string[]) {
    const list = this.albumItems.get(albumId.slice('album:'.length))!;
    for (const id of ids) if (!list.includes(id)) list.push(id);
  }
}

class Recorder implements Reporter {
  readonly outcomes: Array<[string, Outcome]> = [];
  found() {}
  sent() {}
  done(file: string, outcome: Outcome) {
    this.outcomes.push([path.basename(file), outcome]);
  }
  note() {}
  finish() {}
}

describe('upload', () => {
  let root: string;
  const put = async (rel: string, content: string) => {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), content);
  };
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'trove-upload-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('sends what the library lacks, asks in batches, and a re-run sends nothing', async () => {
    for (let i = 0; i < 7; i++) await put(`a/b/${i}.jpg`, `photo ${i}`);
    await put('a/.hidden.jpg', 'h');
    await put('a/readme.txt', 't');
    const library = new MemoryLibrary();

    const first = await upload([root], library, new Recorder(), { concurrency: 3, batchSize: 3 });
    expect(first).toEqual({ uploaded: 7, skipped: 0, failed: 0 });
    expect(library.existCalls).toEqual([3, 3, 1]);

    // By default a small first batch (sending starts early), then each twice the one before, up to 1,000 a call.
    for (let i = 7; i < 30; i++) await put(`c/${i}.jpg`, `photo ${i}`);
    library.existCalls.length = 0;
    expect(await upload([root], library, new Recorder(), { concurrency: 2 })).toEqual({
      uploaded: 23,
      skipped: 7,
      failed: 0,
    });
    expect(library.existCalls).toEqual([8, 16, 6]);

    const again = await upload([root], library, new Recorder(), { concurrency: 3 });
    expect(again).toEqual({ uploaded: 0, skipped: 30, failed: 0 });
    expect(library.uploads).toBe(30);
  });

  it('takes a digest known already without reading the file, and opens what it sends in the order given', async () => {
    const opened: string[] = [];
    const sha = (s: string) => createHash('sha256').update(s).digest('hex');
    const item = (name: string, content: string) => ({
      key: name,
      albums: [],
      sha256: sha(content),
      source: {
        name,
        size: content.length,
        open: async () => {
          opened.push(name);
          return Readable.from([Buffer.from(content)]);
        },
      },
    });
    const library = new MemoryLibrary();
    library.items.set(sha('had'), 'id-had');
    const items = [item('1.jpg', 'one'), item('2.jpg', 'had'), item('3.jpg', 'three'), item('4.jpg', 'four')];
    expect(await sendAll(items, library, new Recorder(), { concurrency: 3 })).toEqual({
      uploaded: 3,
      skipped: 1,
      failed: 0,
    });
    // Read once each, to be sent (never to be hashed), in the items' order.
    expect(opened).toEqual(['1.jpg', '3.jpg', '4.jpg']);
  });

  it('uploads while later batches are hashed and asked about, never more at once than --concurrency, each file once', async () => {
    for (let i = 0; i < 40; i++) await put(`p/${String(i).padStart(2, '0')}.jpg`, `photo ${i}`);
    const library = new MemoryLibrary();
    const events: string[] = [];
    let running = 0;
    let most = 0;
    const sent: string[] = [];
    const { existing, upload: send } = library;
    library.existing = async (sha256) => {
      events.push('exist');
      return existing.call(library, sha256);
    };
    library.upload = async (source, onBytes) => {
      events.push('upload');
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 2));
      try {
        sent.push(source.name);
        return await send.call(library, source, onBytes);
      } finally {
        running--;
      }
    };
    expect(await upload([root], library, new Recorder(), { concurrency: 3 })).toEqual({
      uploaded: 40,
      skipped: 0,
      failed: 0,
    });
    // Batches of 8, 16, then the rest: the first uploads go before the later batches are asked about.
    expect(library.existCalls).toEqual([8, 16, 16]);
    expect(events.indexOf('upload')).toBeLessThan(events.lastIndexOf('exist'));
    expect(most).toBeLessThanOrEqual(3);
    expect(new Set(sent).size).toBe(40);
    expect(sent).toHaveLength(40);
  });

  it('sends the same content once when two files hold it', async () => {
    await put('x/one.jpg', 'same');
    await put('y/two.jpg', 'same');
    await put('y/three.jpg', 'other');
    const library = new MemoryLibrary();
    expect(await upload([root], library, new Recorder(), { concurrency: 4 })).toEqual({
      uploaded: 2,
      skipped: 1,
      failed: 0,
    });
    expect(library.uploads).toBe(2);
  });

  it('files every file, already there or new, in the album of its folder', async () => {
    await put('Trips/Rome/r1.jpg', 'r1');
    await put('Trips/Rome/r2.jpg', 'r2');
    await put('Trips/Oslo/o1.jpg', 'o1');
    await put('Trips/top.jpg', 'top');
    const library = new MemoryLibrary();
    await upload([path.join(root, 'Trips/Rome/r1.jpg')], library, new Recorder(), { concurrency: 1 });

    const summary = await upload([path.join(root, 'Trips')], library, new Recorder(), {
      concurrency: 2,
      albumPerFolder: true,
    });
    expect(summary).toEqual({ uploaded: 3, skipped: 1, failed: 0 });
    expect(Object.fromEntries([...library.albumItems].map(([n, ids]) => [n, ids.length]))).toEqual({
      Rome: 2,
      Oslo: 1,
      Trips: 1,
    });
  });

  it('puts everything in one album with --album, made once', async () => {
    await put('p/1.png', '1');
    await put('q/2.png', '2');
    const library = new MemoryLibrary();
    await upload([root], library, new Recorder(), { concurrency: 2, album: 'Holiday' });
    await upload([root], library, new Recorder(), { concurrency: 2, album: 'Holiday' });
    expect([...library.albumItems.keys()]).toEqual(['Holiday']);
    expect(library.albumItems.get('Holiday')).toHaveLength(2);
  });

  it('counts a failure and goes on; a name that lied about its content is not a failure', async () => {
    await put('ok.jpg', 'fine');
    await put('broken.jpg', 'server dislikes');
    await put('code.ts', 'export {}');
    const library = new MemoryLibrary();
    library.failing.add('broken.jpg');
    const recorder = new Recorder();
    expect(await upload([root], library, recorder, { concurrency: 2 })).toEqual({ uploaded: 1, skipped: 0, failed: 1 });
    expect(recorder.outcomes.sort()).toEqual([
      ['broken.jpg', 'failed'],
      ['code.ts', 'unsupported'],
      ['ok.jpg', 'uploaded'],
    ]);
  });

  it('sends nothing on a dry run', async () => {
    await put('n.jpg', 'new');
    const library = new MemoryLibrary();
    expect(await upload([root], library, new Recorder(), { concurrency: 1, dryRun: true })).toEqual({
      uploaded: 0,
      skipped: 0,
      failed: 0,
      new: 1,
    });
    expect(library.uploads).toBe(0);
  });

  it('stops at once when the server refuses the key', async () => {
    await put('a.jpg', 'a');
    const library = new MemoryLibrary();
    library.existing = async () => Promise.reject(new HttpError(401, 'exist: 401 Unauthorized'));
    await expect(upload([root], library, new Recorder(), { concurrency: 1 })).rejects.toThrow('run trove login again');
    expect(library.uploads).toBe(0);
  });
});
