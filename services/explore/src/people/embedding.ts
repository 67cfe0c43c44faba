/**
 * Face embeddings as explore compares them: unit length (the worker normalises them), so cosine
 * distance is 1 − dot product. The processed result carries each one as base64 of little-endian
 * float32 values (`decodeEmbedding` of @trove/proto-events reads it).
 */

/** Cosine distance of two unit vectors (2 when their lengths differ: never a match). */
export function cosineDistance(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 2;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return 1 - dot;
}
