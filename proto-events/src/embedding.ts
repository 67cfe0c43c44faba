/**
 * A face embedding as the processed result carries it: base64 of its float32 values, little-endian
 * whatever the machine's byte order (the worker writes it, explore reads it).
 */

/** Bytes per float32 value. */
const FLOAT_BYTES = 4;

export function encodeEmbedding(values: Float32Array): string {
  const bytes = Buffer.alloc(values.length * FLOAT_BYTES);
  for (let i = 0; i < values.length; i++) bytes.writeFloatLE(values[i], i * FLOAT_BYTES);
  return bytes.toString('base64');
}

/** The values of an encoded embedding; throws when the text is not base64 of whole float32 values. */
export function decodeEmbedding(encoded: string): Float32Array {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(encoded))
    throw new Error('an embedding must be base64');
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length % FLOAT_BYTES !== 0)
    throw new Error(`an embedding must be whole float32 values, got ${bytes.length} bytes`);
  const values = new Float32Array(bytes.length / FLOAT_BYTES);
  for (let i = 0; i < values.length; i++) values[i] = bytes.readFloatLE(i * FLOAT_BYTES);
  return values;
}
