/**
 * Face embeddings as explore compares them. The processed result carries each one as base64 of
 * little-endian float32 values, unit length, so cosine distance is 1 − dot product.
 */

// TODO(faces): use decodeEmbedding from @trove/proto-events once the faces branch has landed.
/** The values of an encoded embedding; throws when the text is not whole float32 values. */
export function decodeEmbedding(encoded: string): Float32Array {
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length === 0 || bytes.length % 4 !== 0) throw new Error(`an embedding must be whole float32 values, got ${bytes.length} bytes`);
  const values = new Float32Array(bytes.length / 4);
  for (let i = 0; i < values.length; i++) values[i] = bytes.readFloatLE(i * 4);
  return values;
}

/** Cosine distance of two unit vectors (2 when their lengths differ: never a match). */
export function cosineDistance(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 2;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return 1 - dot;
}
