/**
 * DiskUsage over a real S3 blob store (s3rver on loopback), counting the bucket listings it makes.
 */
import { Readable } from 'node:stream';
import { openS3BlobStore } from '@trove/kit';
import type { S3BlobStore } from '@trove/kit';
import { startS3Server } from '@trove/kit/testing';
import type { S3ServerHandle } from '@trove/kit/testing';
import { DiskUsage } from './disk-usage';

let server: S3ServerHandle;
let store: S3BlobStore;
let listings: jest.SpyInstance;
let now = 0;

beforeAll(async () => {
  server = await startS3Server();
  store = await openS3BlobStore({
    endpoint: server.endpoint,
    region: server.region,
    accessKeyId: server.accessKeyId,
    secretAccessKey: server.secretAccessKey,
    forcePathStyle: true,
    bucket: 'disk-usage',
    quotaBytes: 1000,
  });
  await store.put('a/one', Readable.from([Buffer.alloc(100)]));
  listings = jest.spyOn(store, 'list');
});
afterAll(async () => {
  await store?.close();
  await server?.stop();
});
beforeEach(() => {
  listings.mockClear();
  now = 1_700_000_000_000;
});

const usage = (maxAgeMs: number) =>
  new DiskUsage(
    () => store.usage(),
    maxAgeMs,
    () => now,
  );

describe('DiskUsage', () => {
  it('concurrent callers share one listing of the bucket', async () => {
    const disk = usage(0);
    const answers = await Promise.all(Array.from({ length: 8 }, () => disk.get()));
    expect(answers).toEqual(Array(8).fill({ total: 1000, used: 100, free: 900 }));
    expect(listings).toHaveBeenCalledTimes(1);
  });

  it('reuses its figure for maxAgeMs, then measures again', async () => {
    const disk = usage(60_000);
    expect(await disk.get()).toMatchObject({ used: 100 });
    await store.put('a/two', Readable.from([Buffer.alloc(50)]));
    now += 59_000;
    expect(await disk.get()).toMatchObject({ used: 100 });
    expect(listings).toHaveBeenCalledTimes(1);
    now += 1_000;
    expect(await disk.get()).toMatchObject({ used: 150 });
    expect(listings).toHaveBeenCalledTimes(2);
    await store.delete('a/two');
  });

  it('keeps no failed measurement: the next call measures again', async () => {
    let calls = 0;
    const disk = new DiskUsage(
      () => (++calls === 1 ? Promise.reject(new Error('S3 unreachable')) : store.usage()),
      60_000,
      () => now,
    );
    await expect(Promise.all([disk.get(), disk.get()])).rejects.toThrow('S3 unreachable');
    expect(calls).toBe(1);
    expect(await disk.get()).toMatchObject({ used: 100 });
    expect(calls).toBe(2);
  });
});
