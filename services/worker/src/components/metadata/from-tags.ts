/**
 * A MediaMetadata from one file's ExifTool tags, by the table in tags.ts. Sizes and the video stream's
 * fields are filled by the image and video readers (libvips' header, ffprobe).
 */
import type { ExifTags } from './exiftool';
import { cameraOf, creationTimeOf, exposureOf, isoOf, num, positionOf, text } from './tags';
import type { MediaMetadata } from './types';
import { emptyMetadata } from './types';

export function metadataFromTags(t: ExifTags, fileName: string | null): MediaMetadata {
  const meta = emptyMetadata();
  const position = positionOf(t);
  const created = creationTimeOf(t, fileName, position);
  if (created) {
    meta.creationTime = isoOf(created);
    meta.creationTimeSource =
      created.tag === 'FileName'
        ? 'file'
        : /^(Keys|UserData|QuickTime|Track\d+|H264|RIFF):/.test(created.tag)
          ? 'video'
          : 'exif';
  }
  meta.latitude = position?.latitude ?? null;
  meta.longitude = position?.longitude ?? null;
  const camera = cameraOf(t);
  meta.cameraMake = camera.make;
  meta.cameraModel = camera.model;
  Object.assign(meta, exposureOf(t));
  const orientation = num(t['IFD0:Orientation']);
  meta.orientation = orientation !== null && orientation >= 1 && orientation <= 8 ? orientation : null;
  meta.xmpProjectionType = text(t['XMP-GPano:ProjectionType']);
  meta.motionPhoto =
    [t['XMP-GCamera:MotionPhoto'], t['XMP-GCamera:MicroVideo'], t['XMP-Camera:MotionPhoto']].some(
      (v) => num(v) === 1,
    ) || null;
  meta.contentIdentifier = text(t['Apple:ContentIdentifier'] ?? t['Keys:ContentIdentifier']);
  meta.softwareHint = text(t['IFD0:Software'] ?? t['XMP-xmp:CreatorTool'] ?? t['PNG:Software'] ?? t['Keys:Software']);
  meta.userComment = text(t['ExifIFD:UserComment'] ?? t['XMP-exif:UserComment']);
  meta.captureFps = null;
  return meta;
}
