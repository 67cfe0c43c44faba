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

/** Whether this machine stores a float32 the way the encoding does (little-endian): then the bytes are copied as they are. */
const LITTLE_ENDIAN = new Uint8Array(Float32Array.of(1).buffer)[3] === 0x3f;

/**
 * The values of an encoded embedding; throws when the text is not base64 of whole float32 values. Explore decodes
 * every face of a user to group a new one, so this is a copy of the bytes (on little-endian machines) and the check
 * is the text encoding back to itself (canonical base64), not a regular expression over its 5 464 characters.
 */
export function decodeEmbedding(encoded: string): Float32Array {
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.toString('base64') !== encoded) throw new Error('an embedding must be base64');
  if (bytes.length % FLOAT_BYTES !== 0)
    throw new Error(`an embedding must be whole float32 values, got ${bytes.length} bytes`);
  const values = new Float32Array(bytes.length / FLOAT_BYTES);
  if (LITTLE_ENDIAN) new Uint8Array(values.buffer).set(bytes);
  else for (let i = 0; i < values.length; i++) values[i] = bytes.readFloatLE(i * FLOAT_BYTES);
  return values;
}
