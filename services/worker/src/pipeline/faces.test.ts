/**
 * The faces step: the analysis failure policy (a picture the detector fails on costs the item its
 * faces only; a model that cannot be loaded is a tool error the queue retries), and the storing of
 * the thumbnails with the faces as the result carries them.
 */
import { randomUUID } from 'node:crypto';
import { componentDuration, createLogger, openBlobStore } from '@trove/kit';
import type { BlobStore } from '@trove/kit';
import { tempDir } from '@trove/kit/testing';
import type { TempDir } from '@trove/kit/testing';
import { decodeEmbedding, faceThumbnailKey, faceThumbnailsPrefix } from '@trove/proto-events';
import type { ProcessMediaItemV1 } from '@trove/proto-events';
import { Readable } from 'node:stream';
import { MediaError } from '../components';
import type { Face } from '../components';
import { sharedModel } from '../components/vision';
import { findFaces, storeFaces } from './faces';

const log = createLogger({ service: 'worker-test', level: 'silent' });
const item: ProcessMediaItemV1 = { userId: randomUUID(), mediaItemId: randomUUID(), originalKey: 'k', mimeType: 'image/jpeg', mediaItemType: 'photo', filename: 'a.jpg' };

/** How many `faces` runs the histogram has counted with that outcome. */
async function runs(outcome: string): Promise<number> {
  const { values } = await componentDuration.get();
  return values.find((v) => v.metricName?.endsWith('_count') && v.labels.component === 'faces' && v.labels.outcome === outcome)?.value ?? 0;
}

describe('findFaces', () => {
  it('a plain picture: no faces, timed as ok', async () => {
    const before = await runs('ok');
    const grey = { data: Buffer.alloc(640 * 480 * 3, 128), width: 640, height: 480, channels: 3 };
    expect(await findFaces(log, item, grey)).toEqual([]);
    expect(await runs('ok')).toBe(before + 1);
  }, 60_000);

  it('a picture the detector fails on (its pixels do not match its size): no faces, the item goes on', async () => {
    const before = await runs('error');
    const broken = { data: Buffer.alloc(10), width: 640, height: 480, channels: 3 };
    expect(await findFaces(log, item, broken)).toEqual([]);
    expect(await runs('error')).toBe(before + 1);
  }, 60_000);

  it('a model that cannot be loaded: a tool error, thrown for the queue to retry the item', async () => {
    const before = await runs('tool');
    const missing = sharedModel('missing', { jsonPath: '/nonexistent/missing.json' });
    const grey = { data: Buffer.alloc(12), width: 2, height: 2, channels: 3 };
    const err = (await findFaces(log, item, grey, { detect: (_picture, { log }) => missing(log).then(() => []) }).catch((e: unknown) => e)) as MediaError;
    expect(err).toBeInstanceOf(MediaError);
    expect(err.kind).toBe('tool');
    expect(err.message).toMatch(/^the missing model cannot be loaded: .*ENOENT/);
    expect(await runs('tool')).toBe(before + 1);
  });

  it('passes the configured minimums to the detector', async () => {
    const seen: unknown[] = [];
    const grey = { data: Buffer.alloc(12), width: 2, height: 2, channels: 3 };
    await findFaces(log, item, grey, { minScore: 0.8, minSize: 30, detect: async (_picture, { minScore, minSize }) => (seen.push({ minScore, minSize }), []) });
    expect(seen).toEqual([{ minScore: 0.8, minSize: 30 }]);
  });
});

describe('storeFaces', () => {
  let dir: TempDir;
  let blobs: BlobStore;
  beforeAll(async () => {
    dir = await tempDir('trove-faces-step-');
    blobs = await openBlobStore({ dataDir: dir.path });
  });
  afterAll(async () => {
    await blobs.close();
    await dir.remove();
  });

  const face = (i: number): Face => ({
    box: { x: i / 10, y: 0.5, width: 0.05, height: 0.07 },
    score: 0.9 - i / 100,
    embedding: new Float32Array(1024).fill(1 / 32),
    thumbnail: Buffer.from(`thumbnail ${i}`),
  });
  const keys = async () => {
    const found: string[] = [];
    for await (const blob of blobs.list(faceThumbnailsPrefix(item.userId, item.mediaItemId))) found.push(blob.key);
    return found.sort();
  };

  it("stores each thumbnail under its face's key; the faces carry the key and the encoded embedding", async () => {
    const faces = [face(0), face(1)];
    const stored = await storeFaces(blobs, item, faces);
    expect(stored.map((f) => f.thumbnailKey)).toEqual([0, 1].map((i) => faceThumbnailKey(item.userId, item.mediaItemId, i)));
    for (const [i, f] of stored.entries()) {
      expect({ box: f.box, score: f.score }).toEqual({ box: faces[i].box, score: faces[i].score });
      expect(decodeEmbedding(f.embedding)).toEqual(faces[i].embedding);
      const { body, info } = await blobs.get(f.thumbnailKey);
      expect(info.contentType).toBe('image/webp');
      expect(Buffer.concat(await body.toArray())).toEqual(faces[i].thumbnail);
    }
  });

  it('removes the thumbnails an earlier processing left beyond the new count, and only those', async () => {
    await storeFaces(blobs, item, [face(0), face(1), face(2), face(3)]);
    const other = faceThumbnailKey(item.userId, randomUUID(), 5);
    await blobs.put(other, Readable.from(Buffer.from('another item')));
    await storeFaces(blobs, item, [face(0)]);
    expect(await keys()).toEqual([faceThumbnailKey(item.userId, item.mediaItemId, 0)]);
    expect(await blobs.head(other)).not.toBeNull();
    await storeFaces(blobs, item, []);
    expect(await keys()).toEqual([]);
  });
});
