import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Outcome, Reporter } from '../report';
import { exportLibrary } from './export';
import type { ExportSource } from './export';
import { readSidecars, changesFor } from './import';
import type { Album, MediaItem } from './library';

class Recorder implements Reporter {
  readonly files: Array<[string, Outcome]> = [];
  readonly notes: string[] = [];
  found(): void {}
  sent(): void {}
  done(file: string, outcome: Outcome): void {
    this.files.push([file, outcome]);
  }
  note(message: string): void {
    this.notes.push(message);
  }
  finish(): void {}
}

const mediaItem = (id: string, over: Partial<MediaItem>): MediaItem =>
  ({
    id,
    filename: `${id}.jpg`,
    mimeType: 'image/jpeg',
    size: 0,
    updatedAt: '2024-01-01T00:00:00.000Z',
    creationTime: '2019-07-14T14:30:00.000Z',
    latitude: null,
    longitude: null,
    description: null,
    favourite: false,
    hidden: false,
    deleted: false,
    motionMediaItemId: null,
    ...over,
  }) as MediaItem;

/** A library in memory: its items' bytes, albums and people; counts the originals served. */
class FakeLibrary implements ExportSource {
  bytes = new Map<string, Buffer>();
  items: MediaItem[] = [];
  hidden: MediaItem[] = [];
  motions: MediaItem[] = [];
  albumList: Album[] = [];
  albumContent = new Map<string, MediaItem[]>();
  downloads: string[] = [];
  add(id: string, content: string, over: Partial<MediaItem> = {}, where: 'items' | 'hidden' | 'motions' = 'items') {
    const b = Buffer.from(content);
    this.bytes.set(id, b);
    const it = mediaItem(id, { size: b.length, ...over });
    this[where].push(it);
    return it;
  }
  account = async () => ({ id: 'u1', username: 'ann' }) as Awaited<ReturnType<ExportSource['account']>>;
  visibleItems = async () => this.items;
  hiddenItems = async () => this.hidden;
  trashCount = async () => 2;
  item = async (id: string) => {
    const found = [...this.items, ...this.hidden, ...this.motions].find((i) => i.id === id);
    if (!found) throw new Error('404');
    return found;
  };
  albums = async () => this.albumList;
  albumItems = async (id: string) => this.albumContent.get(id) ?? [];
  people = async () => [{ id: 'p1', name: 'Bo' }];
  personItems = async () => ['a'];
  itemPeople = async () => [];
  original = async (id: string) => {
    this.downloads.push(id);
    return Readable.from([this.bytes.get(id)!]);
  };
}

describe('trove export', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'trove-export-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const run = (library: FakeLibrary, report = new Recorder()) =>
    exportLibrary(dir, library, report, { concurrency: 2, server: 'http://trove.test' });

  it('writes originals with sidecars by month, unique names, Live Photo parts beside their still, and albums', async () => {
    const lib = new FakeLibrary();
    const a = lib.add('a', 'AAAA', { filename: 'IMG_1.JPG', favourite: true, description: 'hello' });
    const b = lib.add('b', 'BBBBB', { filename: 'img_1.jpg', creationTime: '2019-07-20T10:00:00.000Z' });
    lib.add('m', 'MOTION', { filename: 'IMG_2.MOV', creationTime: '2020-01-01T00:00:00.000Z' }, 'motions');
    lib.add('c', 'CC', { filename: 'IMG_2.HEIC', creationTime: '2021-03-01T00:00:00.000Z', motionMediaItemId: 'm' });
    lib.add('h', 'HIDDEN', { filename: '../escape.jpg', hidden: true }, 'hidden');
    lib.albumList = [{ id: 'al', name: 'Trip', description: 'Summer', hidden: false, coverMediaItemId: 'b' } as Album];
    lib.albumContent.set('al', [b, a]);

    const report = new Recorder();
    expect(await run(lib, report)).toEqual({ exported: 5, unchanged: 0, failed: 0 });
    expect((await readdir(path.join(dir, '2019/07'))).sort()).toEqual([
      'IMG_1.JPG',
      'IMG_1.JPG.trove.json',
      'escape.jpg',
      'escape.jpg.trove.json',
      'img_1 (2).jpg',
      'img_1 (2).jpg.trove.json',
    ]);
    expect(await readFile(path.join(dir, '2019/07/img_1 (2).jpg'), 'utf8')).toBe('BBBBB');
    expect((await readdir(path.join(dir, '2021/03'))).sort()).toEqual([
      'IMG_2.HEIC',
      'IMG_2.HEIC.trove.json',
      'IMG_2.MOV',
      'IMG_2.MOV.trove.json',
    ]);
    const sidecars = new Map((await readSidecars(dir)).map((s) => [s.rel, s.sidecar]));
    expect(sidecars.get('2019/07/IMG_1.JPG')).toMatchObject({
      id: 'a',
      favourite: true,
      description: 'hello',
      albums: ['Trip'],
      people: ['Bo'],
      sha256: createHash('sha256').update('AAAA').digest('hex'),
    });
    expect(sidecars.get('2019/07/escape.jpg')).toMatchObject({ id: 'h', hidden: true, filename: '../escape.jpg' });
    expect(sidecars.get('2021/03/IMG_2.HEIC')?.livePhoto).toEqual({ motion: 'IMG_2.MOV' });
    expect(sidecars.get('2021/03/IMG_2.MOV')?.livePhoto).toEqual({ still: 'IMG_2.HEIC' });
    expect(JSON.parse(await readFile(path.join(dir, 'albums.json'), 'utf8'))).toEqual([
      {
        name: 'Trip',
        description: 'Summer',
        hidden: false,
        items: ['2019/07/img_1 (2).jpg', '2019/07/IMG_1.JPG'],
        cover: '2019/07/img_1 (2).jpg',
      },
    ]);
    expect(JSON.parse(await readFile(path.join(dir, 'trove-export.json'), 'utf8'))).toMatchObject({
      format: 'trove-export',
      version: 1,
      server: 'http://trove.test',
      user: { id: 'u1', username: 'ann' },
      items: 5,
    });
    expect(report.notes).toContain('2 items in the trash were not exported (restore them first to export them)');
  });

  it('run again fetches only what changed: a changed flag rewrites a sidecar, a lost file is fetched again', async () => {
    const lib = new FakeLibrary();
    lib.add('a', 'AAAA', { filename: 'a.jpg' });
    lib.add('b', 'BBBB', { filename: 'b.jpg' });
    lib.add('c', 'CCCC', { filename: 'c.jpg' });
    await run(lib);
    expect(lib.downloads.sort()).toEqual(['a', 'b', 'c']);

    lib.downloads = [];
    expect(await run(lib)).toEqual({ exported: 0, unchanged: 3, failed: 0 });
    expect(lib.downloads).toEqual([]);

    lib.items[0] = { ...lib.items[0], favourite: true, updatedAt: '2024-02-01T00:00:00.000Z' };
    await unlink(path.join(dir, '2019/07/b.jpg'));
    // A temporary left by a kill is hidden and never taken for the file.
    await writeFile(path.join(dir, '2019/07/.c.jpg.123.part'), 'CC');
    const report = new Recorder();
    expect(await run(lib, report)).toEqual({ exported: 2, unchanged: 1, failed: 0 });
    expect(lib.downloads).toEqual(['b']);
    expect(await readFile(path.join(dir, '2019/07/b.jpg'), 'utf8')).toBe('BBBB');
    const sidecars = new Map((await readSidecars(dir)).map((s) => [s.rel, s.sidecar]));
    expect(sidecars.get('2019/07/a.jpg')?.favourite).toBe(true);

    // A new date moves the file and its sidecar to their new month, without fetching them.
    lib.downloads = [];
    lib.items[2] = { ...lib.items[2], creationTime: '2001-02-03T04:05:06.000Z' };
    expect(await run(lib)).toEqual({ exported: 1, unchanged: 2, failed: 0 });
    expect(lib.downloads).toEqual([]);
    expect(await readdir(path.join(dir, '2001/02'))).toEqual(['c.jpg', 'c.jpg.trove.json']);
  });

  it('a download cut short leaves no file under the real name and counts as failed', async () => {
    const lib = new FakeLibrary();
    lib.add('a', 'AAAA', { filename: 'a.jpg' });
    lib.items[0] = { ...lib.items[0], size: 10 };
    expect(await run(lib)).toEqual({ exported: 0, unchanged: 0, failed: 1 });
    expect(await readdir(path.join(dir, '2019/07'))).toEqual([]);
  });
});

describe('trove import: what an item needs', () => {
  const sidecar = {
    description: 'hi',
    favourite: true,
    hidden: false,
    creationTime: '2019-07-14T16:30:00+02:00',
    position: { latitude: 1, longitude: 2 },
  };
  const item = {
    description: null,
    favourite: false,
    hidden: false,
    creationTime: '2024-01-01T00:00:00.000Z',
    latitude: null,
    longitude: null,
  };

  it('sets what differs, and nothing once the item says what the sidecar says', () => {
    const s = sidecar as Parameters<typeof changesFor>[0];
    expect(changesFor(s, item)).toEqual({
      description: 'hi',
      favourite: true,
      creationTime: '2019-07-14T16:30:00+02:00',
      latitude: 1,
      longitude: 2,
    });
    expect(
      changesFor(s, {
        ...item,
        description: 'hi',
        favourite: true,
        creationTime: '2019-07-14T14:30:00.000Z',
        latitude: 1,
        longitude: 2,
      }),
    ).toEqual({});
    // No position in the sidecar: the item keeps its file's own.
    expect(changesFor({ ...s, position: null }, { ...item, latitude: 5, longitude: 6 })).not.toHaveProperty('latitude');
  });
});
