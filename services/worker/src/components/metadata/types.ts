import { emptyMediaMetadata } from '@trove/proto-events';
import type { MediaMetadataV1 } from '@trove/proto-events';
import type { ProcessingLimits } from '../limits';

/** Where `creationTime` came from, from most to least trustworthy. */
export type CreationTimeSource = 'exif' | 'video' | 'file';

/**
 * What the worker knows about one photo or video. Every field is null when the file does not say.
 * The fields the media item keeps are the contract's (MediaMetadataV1, documented in
 * proto-events/src/schemas/media-metadata.v1.json); the others only serve the worker (category,
 * previews, transcoding). Camera numbers are decimal strings ("4.2", "0.04"): exact as displayed, never fractions.
 */
export interface MediaMetadata extends Omit<MediaMetadataV1, 'creationTime'> {
  /**
   * ISO 8601. Photos: EXIF DateTimeOriginal (else CreateDate, else XMP) in the camera's local time
   * with its OffsetTimeOriginal ("2022-04-03T12:56:11.991+05:30"), or "Z" when the file has no offset.
   * Videos: Apple's local creationdate with its offset, else the container's UTC creation_time.
   * Last resort: the file's mtime.
   */
  creationTime: string | null;
  creationTimeSource: CreationTimeSource | null;
  /** EXIF Orientation as written (1–8). Width/height and previews already account for it. */
  orientation: number | null;
  /** GPano:ProjectionType from XMP ("equirectangular", "cylindrical"…). */
  xmpProjectionType: string | null;
  /** A Google (GCamera/Camera MotionPhoto, MicroVideo) or Samsung (MotionPhoto_Data trailer, `mpvd` box) motion photo. */
  motionPhoto: boolean | null;
  /** Apple Live Photo pairing id (the contract's field): MakerNote Media Group UUID (still) or com.apple.quicktime.content.identifier (video). */
  contentIdentifier: string | null;
  /** Videos: the rate the sensor captured at, when the phone records it (slow motion). */
  captureFps: string | null;
  /** Software that wrote the file (EXIF Software, XMP CreatorTool, PNG Software, video software/encoder tag). */
  softwareHint: string | null;
  /** EXIF UserComment, or XMP exif:UserComment (macOS/iOS write "Screenshot" there). */
  userComment: string | null;
  videoCodec: string | null;
  audioCodec: string | null;
  /** Videos: mov, mp4, m4v, 3gp, webm, matroska, avi… */
  container: string | null;
  /** Videos: pixel format of the video stream (yuv420p…); browsers only play 8-bit 4:2:0 H.264. */
  pixelFormat: string | null;
}

/** The file a reader (image.ts, video.ts) is given, as extractMetadata has it. */
export interface MetadataSource {
  filePath: string;
  /** Its sniffed type. */
  mimeType: string;
  limits: ProcessingLimits;
  /** The uploaded name, which may hold the date when the file has none. */
  fileName: string | null;
  /** The file's own name (not its directory), for messages. */
  name: string;
}

/** A MediaMetadata with nothing known, to build on. */
export function emptyMetadata(): MediaMetadata {
  return {
    ...emptyMediaMetadata(''),
    creationTime: null,
    creationTimeSource: null,
    orientation: null,
    xmpProjectionType: null,
    motionPhoto: null,
    contentIdentifier: null,
    captureFps: null,
    softwareHint: null,
    userComment: null,
    videoCodec: null,
    audioCodec: null,
    container: null,
    pixelFormat: null,
  };
}
