import { decodeEmbedding, encodeEmbedding } from './embedding';
import { mediaProcessedEvent } from './media-contracts';
import { emptyMediaMetadata } from './media-metadata';
import { validate } from './validate';

describe('face embeddings in the processed result', () => {
  it('round-trip exactly, as base64 of little-endian float32', () => {
    const values = Float32Array.from([1, -0.5, 0.1, 2, -0, 1e-45]);
    const encoded = encodeEmbedding(values);
    expect(Buffer.from(encoded, 'base64')).toEqual(
      Buffer.from([0, 0, 0x80, 0x3f, 0, 0, 0, 0xbf, 0xcd, 0xcc, 0xcc, 0x3d, 0, 0, 0, 0x40, 0, 0, 0, 0x80, 1, 0, 0, 0]),
    );
    expect(decodeEmbedding(encoded)).toEqual(values);
  });

  it('1024 values fit the schema of a face in the processed result', () => {
    const values = new Float32Array(1024).map((_, i) => Math.sin(i));
    const embedding = encodeEmbedding(values);
    expect(embedding).toHaveLength(5464);
    const face = {
      box: { x: 0.1, y: 0.2, width: 0.05, height: 0.07 },
      score: 0.9,
      embedding,
      thumbnailKey: 'media/u/i/faces/0.webp',
    };
    const result = {
      userId: '7c0f5e8e-8f43-4a43-9d5e-1b8f4f4b2a10',
      mediaItemId: '1b8f4f4b-8f43-4a43-9d5e-7c0f5e8e2a10',
      mimeType: 'image/jpeg',
      metadata: emptyMediaMetadata('2024-05-01T10:00:00Z'),
      category: 'default',
      placeholder: null,
      variants: { preview: null, thumbnail: null, playback: null },
      faces: [face],
    };
    expect(validate(mediaProcessedEvent.payload, result)).toEqual({ valid: true, errors: [] });
    expect(decodeEmbedding(result.faces[0].embedding)).toEqual(values);
  });

  it('refuses what is not base64 of whole float32 values', () => {
    expect(() => decodeEmbedding('not base64!')).toThrow('an embedding must be base64');
    // Base64 that Buffer would read leniently: characters it skips, missing padding, URL-safe letters.
    for (const lenient of ['AAAA AAAA', 'AAAAAA', 'AAAA-_AA', 'AAA=AAAA', 'AAAAAA=='.replace('==', '=')])
      expect(() => decodeEmbedding(lenient)).toThrow('an embedding must be base64');
    expect(() => decodeEmbedding('AAAA')).toThrow('an embedding must be whole float32 values, got 3 bytes');
    expect(decodeEmbedding('')).toEqual(new Float32Array(0));
  });
});
