import { spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, rm, symlink, utimes, lutimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { startS3Server, type S3ServerHandle } from '../testing/s3-server';
import { openFsBlobStore, type FsBlobStore } from './fs';
import {
  BlobNotFoundError,
  BlobTooLargeError,
  InvalidBlobKeyError,
  RangeNotSatisfiableError,
  openBlobStore,
  type BlobInfo,
  type BlobStore,
} from './index';
import { openS3BlobStore, type S3Options } from './s3';

const MiB = 1024 * 1024;
const BIG = 12 * MiB; // above the S3 adapter's 8 MiB part size: exercises multipart

// ---------------------------------------------------------------------------------------------
// Test data: deterministic pseudo-random bytes, streamed (never one big write) so puts really stream.

function pseudoRandom(size: number, seed: number): Buffer {
  const buf = Buffer.allocUnsafe(size);
  let x = seed | 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    buf[i] = x & 0xff;
  }
  return buf;
}

/** Streams `data` in 64 KiB chunks; with `failAfter`, errors once that many bytes were sent. */
function streamOf(data: Buffer, failAfter?: number): Readable {
  let offset = 0;
  return new Readable({
    read() {
      if (failAfter !== undefined && offset >= failAfter) {
        this.destroy(new Error('source failed midway'));
        return;
      }
      if (offset >= data.length) {
        this.push(null);
        return;
      }
      const end = Math.min(offset + 64 * 1024, data.length, failAfter ?? Infinity);
      this.push(data.subarray(offset, end));
      offset = end;
    },
  });
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function collect(items: AsyncIterable<BlobInfo>): Promise<BlobInfo[]> {
  const out: BlobInfo[] = [];
  for await (const item of items) out.push(item);
  return out;
}

// ---------------------------------------------------------------------------------------------
// The contract every adapter must meet.

interface Harness {
  store: BlobStore;
  cleanup?: () => Promise<void>;
  /**
   * s3rver lists directory by directory, so 'a/1' comes before 'a-b' although '-' < '/'. Real S3
   * and MinIO return UTF-8 byte order (as the filesystem adapter does); only there is that checked.
   */
  emulatorListOrder?: boolean;
}

function blobStoreContract(factory: () => Promise<Harness>, setupTimeoutMs = 30_000): void {
  let harness: Harness | undefined;
  let store: BlobStore;
  let ns: string; // every test writes under its own prefix: tests stay independent on a shared store

  beforeAll(async () => {
    harness = await factory();
    store = harness.store;
  }, setupTimeoutMs);
  afterAll(async () => {
    await harness?.store.close();
    await harness?.cleanup?.();
  });
  beforeEach(() => {
    ns = `t/${randomUUID()}`;
  });

  describe('put', () => {
    it.each([
      ['empty', 0],
      ['small', 11],
      ['multi-MiB', BIG],
    ])('returns size and sha256 of the bytes (%s body), and get returns them', async (_label, size) => {
      const data = pseudoRandom(size, size + 1);
      const result = await store.put(`${ns}/obj`, streamOf(data));
      expect(result).toEqual({ size, sha256: sha256(data) });

      const got = await store.get(`${ns}/obj`);
      expect(got.range).toBeUndefined();
      expect(got.info.size).toBe(size);
      const body = await readAll(got.body);
      expect(body.length).toBe(size);
      expect(sha256(body)).toBe(result.sha256);
      expect((await store.head(`${ns}/obj`))?.size).toBe(size);
    });

    it('round-trips the content type', async () => {
      await store.put(`${ns}/photo.jpg`, streamOf(Buffer.from('jpeg')), { contentType: 'image/jpeg' });
      expect((await store.head(`${ns}/photo.jpg`))?.contentType).toBe('image/jpeg');
      const got = await store.get(`${ns}/photo.jpg`);
      got.body.resume();
      expect(got.info.contentType).toBe('image/jpeg');
    });

    it('overwrites an existing key (bytes and content type)', async () => {
      await store.put(`${ns}/k`, streamOf(Buffer.from('first version')), { contentType: 'text/plain' });
      const second = Buffer.from('v2');
      await store.put(`${ns}/k`, streamOf(second), { contentType: 'application/json' });
      const got = await store.get(`${ns}/k`);
      expect(await readAll(got.body)).toEqual(second);
      expect(got.info).toMatchObject({ size: 2, contentType: 'application/json' });
      expect(await collect(store.list(`${ns}/`))).toHaveLength(1);
    });

    it('accepts a body of exactly maxBytes', async () => {
      const data = pseudoRandom(10, 3);
      await expect(store.put(`${ns}/exact`, streamOf(data), { maxBytes: 10 })).resolves.toEqual({
        size: 10,
        sha256: sha256(data),
      });
    });

    it.each([
      ['small', 11, 10],
      ['multipart-sized', BIG, 9 * MiB],
    ])('rejects a %s body over maxBytes with BlobTooLargeError and stores nothing', async (_label, size, maxBytes) => {
      const source = streamOf(pseudoRandom(size, 5));
      const err: unknown = await store.put(`${ns}/big`, source, { maxBytes }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BlobTooLargeError);
      expect((err as BlobTooLargeError).maxBytes).toBe(maxBytes);
      expect(source.destroyed).toBe(true); // the rest of the body is not read
      expect(await store.head(`${ns}/big`)).toBeNull();
      await expect(store.get(`${ns}/big`)).rejects.toBeInstanceOf(BlobNotFoundError);
      expect(await collect(store.list(ns))).toEqual([]);
    });

    it('place: the object is whole and readable as soon as it resolves, then durable settles', async () => {
      const data = pseudoRandom(300_000, 7);
      const placed = await store.place(`${ns}/placed`, streamOf(data), { contentType: 'image/png' });
      expect(placed).toMatchObject({ size: data.length, sha256: sha256(data) });
      const got = await store.get(`${ns}/placed`);
      expect(got.info.contentType).toBe('image/png');
      expect(sha256(await readAll(got.body))).toBe(sha256(data));
      await expect(placed.durable).resolves.toBeUndefined();
    });

    it('place: over maxBytes rejects and stores nothing, like put', async () => {
      await expect(
        store.place(`${ns}/placed-big`, streamOf(pseudoRandom(100, 1)), { maxBytes: 50 }),
      ).rejects.toBeInstanceOf(BlobTooLargeError);
      expect(await store.head(`${ns}/placed-big`)).toBeNull();
    });

    it('keeps the previous object when an overwrite exceeds maxBytes', async () => {
      await store.put(`${ns}/k`, streamOf(Buffer.from('old')));
      await expect(store.put(`${ns}/k`, streamOf(pseudoRandom(100, 1)), { maxBytes: 50 })).rejects.toBeInstanceOf(
        BlobTooLargeError,
      );
      expect((await readAll((await store.get(`${ns}/k`)).body)).toString()).toBe('old');
    });

    it.each([
      ['early', 1000, 1000],
      ['after a multipart part', BIG, 10 * MiB],
    ])('leaves nothing under the key when the source fails (%s)', async (_label, size, failAfter) => {
      await expect(store.put(`${ns}/broken`, streamOf(pseudoRandom(size, 9), failAfter))).rejects.toThrow(
        'source failed midway',
      );
      expect(await store.head(`${ns}/broken`)).toBeNull();
      expect(await collect(store.list(ns))).toEqual([]);
    });
  });

  describe('get', () => {
    const data = pseudoRandom(1000, 42);
    beforeEach(async () => {
      await store.put(`${ns}/r`, streamOf(data), { contentType: 'application/octet-stream' });
    });

    it.each([
      ['first bytes', { start: 0, end: 9 }, { start: 0, end: 9 }],
      ['middle', { start: 100, end: 199 }, { start: 100, end: 199 }],
      ['open-ended', { start: 990 }, { start: 990, end: 999 }],
      ['single byte', { start: 500, end: 500 }, { start: 500, end: 500 }],
      ['last byte', { start: 999 }, { start: 999, end: 999 }],
      ['end past the size (clamped)', { start: 995, end: 5000 }, { start: 995, end: 999 }],
    ])('serves a range: %s', async (_label, range, served) => {
      const got = await store.get(`${ns}/r`, range);
      expect(got.range).toEqual(served);
      expect(got.info.size).toBe(1000); // the object's size, not the body's
      expect(await readAll(got.body)).toEqual(data.subarray(served.start, served.end + 1));
    });

    it.each([{ start: 1000 }, { start: 1000, end: 1001 }, { start: 5000, end: 6000 }])(
      'rejects a range starting past the end (%o) with RangeNotSatisfiableError',
      async (range) => {
        const err: unknown = await store.get(`${ns}/r`, range).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(RangeNotSatisfiableError);
        expect((err as RangeNotSatisfiableError).size).toBe(1000);
      },
    );

    it('rejects any range on an empty object with RangeNotSatisfiableError', async () => {
      await store.put(`${ns}/empty`, streamOf(Buffer.alloc(0)));
      await expect(store.get(`${ns}/empty`, { start: 0 })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
    });

    it('rejects a malformed range with RangeError', async () => {
      await expect(store.get(`${ns}/r`, { start: 10, end: 5 })).rejects.toBeInstanceOf(RangeError);
      await expect(store.get(`${ns}/r`, { start: -1 })).rejects.toBeInstanceOf(RangeError);
    });

    it('serves a range across a multipart part boundary', async () => {
      const big = pseudoRandom(BIG, 77);
      await store.put(`${ns}/big`, streamOf(big));
      const range = { start: 8 * MiB - 10, end: 8 * MiB + 9 };
      const got = await store.get(`${ns}/big`, range);
      expect(await readAll(got.body)).toEqual(big.subarray(range.start, range.end + 1));
    });

    it('throws BlobNotFoundError for an absent key', async () => {
      const err: unknown = await store.get(`${ns}/absent`).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BlobNotFoundError);
      expect((err as BlobNotFoundError).key).toBe(`${ns}/absent`);
    });
  });

  describe('head', () => {
    it('returns metadata when present and null when absent', async () => {
      await store.put(`${ns}/h`, streamOf(Buffer.from('hello')), { contentType: 'text/plain' });
      const info = await store.head(`${ns}/h`);
      expect(info).toMatchObject({ key: `${ns}/h`, size: 5, contentType: 'text/plain' });
      expect(typeof info?.etag).toBe('string');
      expect(info?.lastModified).toBeInstanceOf(Date);
      expect(await store.head(`${ns}/nope`)).toBeNull();
    });
  });

  describe('delete', () => {
    it('is idempotent, and the object is gone afterwards', async () => {
      await store.delete(`${ns}/never-existed`);
      await store.put(`${ns}/d`, streamOf(Buffer.from('x')));
      await store.delete(`${ns}/d`);
      await store.delete(`${ns}/d`);
      expect(await store.head(`${ns}/d`)).toBeNull();
      await expect(store.get(`${ns}/d`)).rejects.toBeInstanceOf(BlobNotFoundError);
      expect(await collect(store.list(ns))).toEqual([]);
    });
  });

  describe('list', () => {
    it('yields the keys under a prefix in key order, nested keys included, others excluded', async () => {
      const keys = ['a/2/x', 'a/1', 'a-b', 'ab', 'a/10', 'b/1', 'a/2/y/z'];
      for (const [i, key] of keys.entries()) await store.put(`${ns}/${key}`, streamOf(pseudoRandom(i + 1, i + 1)));
      const sizeOf = (key: string) => keys.indexOf(key) + 1;
      const listed = async (prefix: string) =>
        (await collect(store.list(`${ns}/${prefix}`))).map((i) => i.key.slice(ns.length + 1));

      // Byte order: '-' (0x2d) < '/' (0x2f) < '1' < '2' < 'b'.
      expect(await listed('a/')).toEqual(['a/1', 'a/10', 'a/2/x', 'a/2/y/z']);
      const underA = await listed('a');
      if (harness?.emulatorListOrder)
        expect([...underA].sort()).toEqual(['a-b', 'a/1', 'a/10', 'a/2/x', 'a/2/y/z', 'ab']);
      else expect(underA).toEqual(['a-b', 'a/1', 'a/10', 'a/2/x', 'a/2/y/z', 'ab']);
      expect(await listed('a/1')).toEqual(['a/1', 'a/10']);
      expect(await listed('b/')).toEqual(['b/1']);
      expect(await listed('c')).toEqual([]);

      const all = await collect(store.list(`${ns}/`));
      expect(all).toHaveLength(keys.length);
      for (const item of all) expect(item.size).toBe(sizeOf(item.key.slice(ns.length + 1)));
    });
  });

  describe('keys', () => {
    const invalid = [
      '',
      '/abs',
      'a//b',
      'a/',
      '../x',
      'a/../b',
      'a/./b',
      'nul\0x',
      'back\\slash',
      '.tmp/x',
      'x.meta.json',
      'x'.repeat(1025),
    ];

    it.each(invalid.map((k) => [JSON.stringify(k).slice(0, 40), k]))(
      'rejects %s in every operation',
      async (_label, key) => {
        const body = streamOf(Buffer.from('x'));
        await expect(store.put(key, body)).rejects.toBeInstanceOf(InvalidBlobKeyError);
        expect(body.destroyed).toBe(true);
        await expect(store.get(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
        await expect(store.head(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
        await expect(store.delete(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
      },
    );

    it('rejects an invalid list prefix', async () => {
      await expect(collect(store.list('../x'))).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(collect(store.list('/x'))).rejects.toBeInstanceOf(InvalidBlobKeyError);
    });
  });

  describe('usage', () => {
    it('returns sane numbers', async () => {
      await store.put(`${ns}/u`, streamOf(pseudoRandom(1000, 1)));
      const u = await store.usage();
      for (const n of [u.total, u.free, u.used]) {
        expect(Number.isFinite(n)).toBe(true);
        expect(n).toBeGreaterThanOrEqual(0);
      }
      expect(u.used).toBeGreaterThanOrEqual(1000);
      expect(u.used).toBeLessThanOrEqual(u.total);
      expect(u.free).toBeLessThanOrEqual(u.total);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Filesystem adapter

describe('filesystem blob store', () => {
  describe('contract', () => {
    blobStoreContract(async () => {
      const root = await mkdtemp(join(tmpdir(), 'trove-blobs-'));
      return { store: await openFsBlobStore({ root }), cleanup: () => rm(root, { recursive: true, force: true }) };
    });
  });

  describe('specifics', () => {
    let root: string;
    let store: FsBlobStore;
    // lstat: a sidecar is a symbolic link whose target is not a path.
    const exists = (path: string) =>
      lstat(path).then(
        () => true,
        () => false,
      );
    const temps = () => readdir(store.tempDir);

    beforeEach(async () => {
      root = await mkdtemp(join(tmpdir(), 'trove-blobs-'));
      store = await openFsBlobStore({ root });
    });
    afterEach(async () => {
      await store.close();
      await rm(root, { recursive: true, force: true });
    });

    it('keeps the final path absent while a put is in flight (atomic rename)', async () => {
      const body = new PassThrough();
      const putting = store.put('a/b/photo', body, { contentType: 'image/heic' });
      body.write(pseudoRandom(64 * 1024, 1));
      for (let i = 0; i < 200 && (await temps()).length === 0; i++) await new Promise((r) => setTimeout(r, 5));
      expect((await temps()).length).toBeGreaterThan(0);
      expect(await exists(store.pathOf('a/b/photo'))).toBe(false);
      expect(await store.head('a/b/photo')).toBeNull();
      expect(await collect(store.list(''))).toEqual([]);

      body.end(pseudoRandom(10, 2));
      await expect(putting).resolves.toMatchObject({ size: 64 * 1024 + 10 });
      expect(await exists(store.pathOf('a/b/photo'))).toBe(true);
      expect(await temps()).toEqual([]);
    });

    it.each([
      ['a failing source', () => streamOf(pseudoRandom(200_000, 1), 100_000), {}],
      ['maxBytes', () => streamOf(pseudoRandom(200_000, 1)), { maxBytes: 100_000 }],
    ])('cleans its temp files and writes nothing after %s', async (_label, source, options) => {
      await expect(store.put('x/y', source(), options)).rejects.toThrow();
      expect(await temps()).toEqual([]);
      expect(await exists(store.pathOf('x/y'))).toBe(false);
      expect(await exists(store.pathOf('x/y') + '.meta.json')).toBe(false);
      expect(await exists(store.pathOf('x'))).toBe(false); // the directory the put made for it
    });

    it('lists no temp or sidecar files', async () => {
      await store.put('k', streamOf(Buffer.from('x')), { contentType: 'text/plain' });
      await writeFile(join(store.tempDir, 'leftover'), 'partial');
      expect((await collect(store.list(''))).map((i) => i.key)).toEqual(['k']);
      expect(await exists(store.pathOf('k') + '.meta.json')).toBe(true);
    });

    it('removes stale temp files at open, and only those (sidecar links by their own time)', async () => {
      const stale = join(store.tempDir, 'stale');
      const fresh = join(store.tempDir, 'fresh');
      const staleLink = join(store.tempDir, 'stale.meta.json');
      const freshLink = join(store.tempDir, 'fresh.meta.json');
      await writeFile(stale, 'x');
      await writeFile(fresh, 'x');
      await symlink('{"contentType":"image/jpeg"}', staleLink);
      await symlink('{"contentType":"image/jpeg"}', freshLink);
      const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
      await utimes(stale, twoHoursAgo, twoHoursAgo);
      await lutimes(staleLink, twoHoursAgo, twoHoursAgo);
      await openFsBlobStore({ root });
      expect((await temps()).sort()).toEqual(['fresh', 'fresh.meta.json']);
    });

    it('keeps the content type in a symbolic link beside the object, and still reads sidecar files', async () => {
      await store.put('linked', streamOf(Buffer.from('x')), { contentType: 'image/heic' });
      expect((await lstat(store.pathOf('linked') + '.meta.json')).isSymbolicLink()).toBe(true);
      // As earlier versions (and filesystems without symbolic links) keep it: a JSON file.
      await store.put('filed', streamOf(Buffer.from('y')));
      await rm(store.pathOf('filed') + '.meta.json');
      await writeFile(
        store.pathOf('filed') + '.meta.json',
        JSON.stringify({ contentType: 'video/mp4', sha256: 'ab', size: 1 }),
      );
      expect((await store.head('filed'))?.contentType).toBe('video/mp4');
      expect((await store.head('linked'))?.contentType).toBe('image/heic');
      // An overwrite without a type leaves none of the old one behind.
      await store.put('linked', streamOf(Buffer.from('z')));
      expect((await store.head('linked'))?.contentType).toBeUndefined();
      await store.delete('linked');
      expect(await exists(store.pathOf('linked') + '.meta.json')).toBe(false);
    });

    it('prunes directories a delete leaves empty', async () => {
      await store.put('users/u1/p1/original', streamOf(Buffer.from('1')));
      await store.put('users/u2/p2/original', streamOf(Buffer.from('2')));
      await store.delete('users/u1/p1/original');
      expect(await exists(join(root, 'users', 'u1'))).toBe(false);
      expect(await exists(join(root, 'users', 'u2', 'p2'))).toBe(true);
      expect(await exists(root)).toBe(true);
    });

    it('derives a quoted etag from size, mtime and file that changes on every overwrite, even within one clock tick', async () => {
      await store.put('e', streamOf(Buffer.from('one')));
      const etags = [(await store.head('e'))?.etag];
      expect(etags[0]).toMatch(/^"[0-9a-f]+-[0-9a-f]+-[0-9a-f]+"$/);
      // Same size, back to back: file times tick coarsely, so these often share an mtime.
      for (let i = 0; i < 5; i++) {
        await store.put('e', streamOf(Buffer.from('one')));
        etags.push((await store.head('e'))?.etag);
      }
      expect(new Set(etags).size).toBe(etags.length);
    });

    it('rejects a key that is already a directory of other keys, leaving no sidecar', async () => {
      await store.put('dir/child', streamOf(Buffer.from('c')));
      await expect(store.put('dir', streamOf(Buffer.from('d')), { contentType: 'text/plain' })).rejects.toThrow(
        /other keys exist under it/,
      );
      expect(await store.head('dir')).toBeNull();
      expect(await exists(store.pathOf('dir') + '.meta.json')).toBe(false);
      expect(await temps()).toEqual([]);
    });

    it('treats a prefix directory as an absent key', async () => {
      await store.put('p/q', streamOf(Buffer.from('c')));
      expect(await store.head('p')).toBeNull();
      await expect(store.get('p')).rejects.toBeInstanceOf(BlobNotFoundError);
      await store.delete('p');
      expect(await store.head('p/q')).not.toBeNull();
    });

    it('is what openBlobStore opens under <dataDir>/blobs without S3 settings', async () => {
      const opened = await openBlobStore({ dataDir: root });
      expect(opened.kind).toBe('fs');
      await opened.put('k', streamOf(Buffer.from('x')));
      expect(await exists(join(root, 'blobs', 'k'))).toBe(true);
      await opened.close();
    });

    it('reports the volume size in usage()', async () => {
      await mkdir(join(root, 'sub'));
      const u = await store.usage();
      expect(u.total).toBeGreaterThan(0);
      expect(u.free + u.used).toBeLessThanOrEqual(u.total);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// S3 adapter against s3rver on loopback

describe('S3 blob store (s3rver)', () => {
  let server: S3ServerHandle;
  const optionsFor = (bucket: string, extra: Partial<S3Options> = {}): S3Options => ({
    endpoint: server.endpoint,
    region: server.region,
    accessKeyId: server.accessKeyId,
    secretAccessKey: server.secretAccessKey,
    forcePathStyle: true,
    bucket,
    ...extra,
  });

  beforeAll(async () => {
    server = await startS3Server();
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe('contract', () => {
    blobStoreContract(async () => ({
      store: await openS3BlobStore(optionsFor('trove-contract', { prefix: 'install-1' })),
      emulatorListOrder: true,
    }));
  });

  describe('specifics', () => {
    it('creates the bucket once and reopens it; prefixes isolate stores sharing a bucket', async () => {
      const a = await openBlobStore({ dataDir: '/nonexistent', s3: optionsFor('trove-shared', { prefix: 'a/' }) });
      const b = await openS3BlobStore(optionsFor('trove-shared', { prefix: 'b' }));
      expect(a.kind).toBe('s3');
      await a.put('k', streamOf(Buffer.from('from a')));
      expect(await b.head('k')).toBeNull();
      expect(await collect(b.list(''))).toEqual([]);
      expect((await collect(a.list(''))).map((i) => i.key)).toEqual(['k']);
      await Promise.all([a.close(), b.close()]);
    });

    it('reports used = bytes under the prefix, total/free from quotaBytes', async () => {
      const store = await openS3BlobStore(optionsFor('trove-usage', { prefix: 'q', quotaBytes: 10_000 }));
      await store.put('x', streamOf(pseudoRandom(1000, 1)));
      await store.put('y/z', streamOf(pseudoRandom(500, 2)));
      expect(await store.usage()).toEqual({ total: 10_000, used: 1500, free: 8500 });
      await store.close();

      const unlimited = await openS3BlobStore(optionsFor('trove-usage', { prefix: 'q' }));
      expect(await unlimited.usage()).toEqual({ total: 1500, used: 1500, free: 0 });
      await unlimited.close();
    });
  });
});

// ---------------------------------------------------------------------------------------------
// S3 adapter against MinIO, only where a Docker engine answers.

/** Synchronous (jest collects tests synchronously), bounded probe: GET /_ping on the Docker API. */
function dockerEngineReachable(): { ok: boolean; why: string } {
  const probe = `
    const http = require('node:http');
    const host = process.env.DOCKER_HOST || '';
    const home = process.env.HOME || '';
    let target;
    if (host.startsWith('tcp://')) { const u = new URL(host.replace('tcp://', 'http://')); target = { host: u.hostname, port: u.port || 2375 }; }
    else {
      const fs = require('node:fs');
      const candidates = host.startsWith('unix://') ? [host.slice(7)] :
        ['/var/run/docker.sock', home + '/.docker/run/docker.sock', home + '/.docker/desktop/docker.sock',
         (process.env.XDG_RUNTIME_DIR || '/nonexistent') + '/docker.sock'];
      const socketPath = candidates.find((p) => fs.existsSync(p));
      if (!socketPath) { console.log('no Docker socket found (DOCKER_HOST unset, ' + candidates[0] + ' absent)'); process.exit(1); }
      target = { socketPath };
    }
    http.get({ ...target, path: '/_ping', timeout: 2000 }, (res) => process.exit(res.statusCode === 200 ? 0 : 1))
      .on('error', (e) => { console.log('Docker engine not reachable: ' + e.message); process.exit(1); })
      .on('timeout', () => { console.log('Docker engine did not answer /_ping'); process.exit(1); });`;
  const res = spawnSync(process.execPath, ['-e', probe], { timeout: 5000, encoding: 'utf8' });
  return { ok: res.status === 0, why: res.stdout.trim() || 'Docker probe failed' };
}

const docker = dockerEngineReachable();
const describeIfDocker = docker.ok ? describe : describe.skip;

describeIfDocker('S3 blob store (MinIO via testcontainers)', () => {
  if (!docker.ok) process.stderr.write(`[blobstore] skipping MinIO contract tests: ${docker.why}\n`);

  blobStoreContract(async () => {
    // Loaded lazily: only needed (and only loadable) where a Docker engine exists.
    const { GenericContainer, Wait } = await import('testcontainers');
    const user = 'trove';
    const password = 'trove-secret';
    const container = await new GenericContainer('minio/minio')
      .withCommand(['server', '/data'])
      .withEnvironment({ MINIO_ROOT_USER: user, MINIO_ROOT_PASSWORD: password })
      .withExposedPorts(9000)
      .withWaitStrategy(Wait.forHttp('/minio/health/live', 9000))
      .start();
    const store = await openS3BlobStore({
      endpoint: `http://${container.getHost()}:${container.getMappedPort(9000)}`,
      region: 'us-east-1',
      bucket: 'trove-contract',
      accessKeyId: user,
      secretAccessKey: password,
      forcePathStyle: true,
    });
    return {
      store,
      cleanup: async () => {
        await container.stop();
      },
    };
  }, 180_000);
});

// ---------------------------------------------------------------------------------------------
// S3 adapter against a running MinIO (or any S3) named by TROVE_TEST_S3_ENDPOINT, e.g. CI's MinIO service
// container; the access key and secret come from TROVE_TEST_S3_ACCESS_KEY_ID / TROVE_TEST_S3_SECRET_ACCESS_KEY.

const s3Endpoint = process.env.TROVE_TEST_S3_ENDPOINT;
if (!s3Endpoint)
  process.stderr.write('[blobstore] skipping the external S3 contract run: TROVE_TEST_S3_ENDPOINT is unset\n');

(s3Endpoint ? describe : describe.skip)('S3 blob store (TROVE_TEST_S3_ENDPOINT)', () => {
  blobStoreContract(async () => {
    // A bucket per run: repeated or parallel runs never see each other's objects.
    const bucket = `trove-contract-${randomUUID().slice(0, 8)}`;
    const store = await openS3BlobStore({
      endpoint: s3Endpoint,
      region: process.env.TROVE_TEST_S3_REGION || 'us-east-1',
      bucket,
      accessKeyId: process.env.TROVE_TEST_S3_ACCESS_KEY_ID ?? '',
      secretAccessKey: process.env.TROVE_TEST_S3_SECRET_ACCESS_KEY ?? '',
      forcePathStyle: true,
    });
    return { store };
  }, 60_000);
});
