import type { MediaMetadataV1 } from './generated/types';
import mediaMetadataV1 from './schemas/media-metadata.v1.json';
/**
 * The one list of a media item's metadata fields (EXIF, XMP, QuickTime): the worker fills it, the
 * processing result and the media item carry it as one object, the media service stores it as is.
 * A new field is added here (the schema), in the worker's extraction and in the gateway's presenter.
 */
export const mediaMetadataSchema = mediaMetadataV1;

/** The metadata fields, in schema order. */
export const MEDIA_METADATA_FIELDS = Object.keys(mediaMetadataV1.properties) as Array<keyof MediaMetadataV1>;

/** Metadata with nothing known but the creation time: an item not processed yet, a fixture to build on. */
export function emptyMediaMetadata(creationTime: string): MediaMetadataV1 {
  return {
    ...Object.fromEntries(MEDIA_METADATA_FIELDS.map((field) => [field, null])),
    creationTime,
  } as MediaMetadataV1;
}
