/**
 * The faces step (its failure policy is tested with the things step's in analysis.test.ts): the
 * configured minimums, and the storing of the thumbnails with the faces as the result carries them.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { openBlobStore } from '@trove/kit';
import type { BlobStore } from '@trove/kit';
import { tempDir } from '@trove/kit/testing';
import type { TempDir } from '@trove/kit/testing';
import { decodeEmbedding, faceThumbnailKey, faceThumbnailsPrefix } from '@trove/proto-events';
import type { Face } from '../components';
import { findFaces, storeFaces } from './faces';
import { photoItem, silentLog } from './work-item.fake';

const log = silentLog;
const item = photoItem();

describe('findFaces', () => {
  it('passes the configured minimums to the detector', async () => {
    const seen: unknown[] = [];
    const grey = { data: Buffer.alloc(12), width: 2, height: 2, channels: 3 };
    await findFaces(log, item, grey, {
      minScore: 0.8,
      minSize: 30,
      detect: async (_picture, { minScore, minSize }) => (seen.push({ minScore, minSize }), []),
    });
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
    quality: 0.8 - i / 10,
    embedding: new Float32Array(1024).fill(1 / 32),
    thumbnail: Buffer.from(`thumbnail ${i}`),
  });
  const keys = async () => {
    const found: string[] = [];
    for await (const blob of blobs.list(faceThumbnailsPrefix(item.userId, item.mediaItemId))) found.push(blob.key);
    return found.sort();
  };

  it("stores each thumbnail under its face's key; the faces carry the key, the quality and the encoded embedding", async () => {
    const faces = [face(0), face(1)];
    const stored = await storeFaces(blobs, item, faces);
    expect(stored.map((f) => f.thumbnailKey)).toEqual(
      [0, 1].map((i) => faceThumbnailKey(item.userId, item.mediaItemId, i)),
    );
    for (const [i, f] of stored.entries()) {
      expect({ box: f.box, score: f.score, quality: f.quality }).toEqual({
        box: faces[i].box,
        score: faces[i].score,
        quality: faces[i].quality,
      });
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
