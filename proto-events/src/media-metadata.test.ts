import { getMediaItemRpc, mediaProcessedEvent } from './media-contracts';
import { MEDIA_METADATA_FIELDS, emptyMediaMetadata, mediaMetadataSchema } from './media-metadata';
import { validate } from './validate';

const userId = '7c0f5e8e-8f43-4a43-9d5e-1b8f4f4b2a10';
const mediaItemId = '1b8f4f4b-8f43-4a43-9d5e-7c0f5e8e2a10';

describe('media metadata: one schema for the media item and the processing result', () => {
  it('nothing known but the creation time is valid metadata', () => {
    const empty = emptyMediaMetadata('2024-05-01T10:00:00+02:00');
    expect(Object.keys(empty)).toEqual(MEDIA_METADATA_FIELDS);
    expect(validate(mediaMetadataSchema, empty)).toEqual({ valid: true, errors: [] });
  });

  it('refuses what the fields cannot hold', () => {
    const base = emptyMediaMetadata('2024-05-01T10:00:00Z');
    for (const bad of [
      { latitude: 91 },
      { longitude: -181 },
      { width: -1 },
      { width: 1.5 },
      { focalLength: '1/250' },
      { durationSeconds: -2 },
      { creationTime: '2024:05:01 10:00:00' },
      { lens: 'x' },
    ]) {
      expect(validate(mediaMetadataSchema, { ...base, ...bad }).valid).toBe(false);
    }
  });

  it('the processing result and the media item both carry it (through $ref)', () => {
    const metadata = {
      ...emptyMediaMetadata('2024-05-01T10:00:00Z'),
      width: 4032,
      cameraMake: 'Apple',
      exposureTime: '0.004',
    };
    const result = {
      userId,
      mediaItemId,
      mimeType: 'image/jpeg',
      metadata,
      category: 'default',
      placeholder: null,
      variants: { preview: null, thumbnail: null, playback: null },
    };
    expect(validate(mediaProcessedEvent.payload, result).valid).toBe(true);
    expect(
      validate(mediaProcessedEvent.payload, { ...result, metadata: { ...metadata, latitude: 100 } }).errors,
    ).toEqual(['/metadata/latitude must be <= 90']);
    expect(getMediaItemRpc.response).toMatchObject({ properties: { metadata: { $ref: mediaMetadataSchema.$id } } });
  });
});
