import { MEDIA_METADATA_FIELDS, mediaMetadataSchema, validate } from '@trove/proto-events';
import type { JsonSchema, MediaMetadataV1 } from '@trove/proto-events';
import type { MediaMetadata } from './types';

const FIELD_SCHEMAS: Record<string, JsonSchema> = mediaMetadataSchema.properties;

/**
 * The metadata as the contract carries it (MediaMetadataV1). Each field is taken from what the
 * worker found when the field's schema admits it (text trimmed first), else it is null: an odd
 * file never fails its item. A position needs both coordinates; without a creation time the
 * contract admits, the upload time stands in.
 */
export function contractMetadata(meta: MediaMetadata, uploadedAt: Date): MediaMetadataV1 {
  const out: Record<string, unknown> = {};
  for (const field of MEDIA_METADATA_FIELDS) out[field] = admitted(FIELD_SCHEMAS[field]!, meta[field]);
  out.creationTime ??= uploadedAt.toISOString();
  if (out.latitude === null || out.longitude === null) out.latitude = out.longitude = null;
  return out as unknown as MediaMetadataV1;
}

function admitted(schema: JsonSchema, found: unknown): unknown {
  const value = typeof found === 'string' ? found.trim() || null : found;
  // JSON has no NaN or Infinity, and the validator lets Infinity through as a number.
  if (value === null || value === undefined || (typeof value === 'number' && !Number.isFinite(value))) return null;
  return validate(schema, value).valid ? value : null;
}
