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
import { ANIMAL_FACE_MIN_SCORE, findFaces, storeFaces, withoutAnimalFaces } from './faces';
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

describe('withoutAnimalFaces', () => {
  /** A face whose box is centred on (x, y), and an object of class `cls` over the box x1..x2, y1..y2. */
  const face = (x: number, y: number) => ({ box: { x: x - 0.05, y: y - 0.05, width: 0.1, height: 0.1 } });
  const object = (cls: string, score: number, [x1, y1, x2, y2]: number[]) => ({ cls, score, box: { x1, y1, x2, y2 } });
  const cat = object('cat', 0.65, [0.1, 0.1, 0.6, 0.9]);

  it("leaves out a face on an animal (its centre in the animal's box) with no person around it", () => {
    const onCat = face(0.3, 0.3);
    const aside = face(0.8, 0.3);
    expect(withoutAnimalFaces([onCat, aside], [cat])).toEqual([aside]);
    for (const cls of ['dog', 'bird', 'horse', 'teddy bear'])
      expect(withoutAnimalFaces([onCat], [{ ...cat, cls }])).toEqual([]);
  });

  it("keeps a face that is in a person's box too (someone holding their cat)", () => {
    const cheek = face(0.3, 0.3);
    expect(withoutAnimalFaces([cheek], [cat, object('person', 0.4, [0.2, 0.0, 0.5, 1.0])])).toEqual([cheek]);
  });

  it(`keeps a face in the box of an animal scored under ${ANIMAL_FACE_MIN_SCORE} (a close-up face the detector calls a 0.32 dog)`, () => {
    const crop = face(0.5, 0.5);
    expect(withoutAnimalFaces([crop], [object('dog', 0.32, [0, 0, 1, 1])])).toEqual([crop]);
    expect(withoutAnimalFaces([crop], [object('dog', ANIMAL_FACE_MIN_SCORE, [0, 0, 1, 1])])).toEqual([]);
  });

  it('keeps every face where nothing else was seen, or only things that are not animals', () => {
    const faces = [face(0.3, 0.3), face(0.7, 0.7)];
    expect(withoutAnimalFaces(faces, [])).toEqual(faces);
    expect(withoutAnimalFaces(faces, [object('tv', 0.9, [0, 0, 1, 1])])).toEqual(faces);
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
