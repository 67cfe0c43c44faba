/**
 * Metadata of a video: dates, position and camera from ExifTool (tags.ts), the streams (size, rotation,
 * rate, codecs, duration) from ffprobe, whose container tags stand in where ExifTool has nothing. Phones put what a library wants in container tags: Apple in
 * `com.apple.quicktime.*` keys, Android in `com.android.*` keys and an ISO 6709 `location`.
 */
import { MediaError } from '../errors';
import { ffprobe } from '../ffmpeg';
import type { ProbeData, ProbeStream } from '../ffmpeg';
import { isobmffFileIsComplete } from '../formats/isobmff';
import { ISOBMFF_MIME_TYPES } from '../mime';
import { readTags } from './exiftool';
import { metadataFromTags } from './from-tags';
import type { MediaMetadata, MetadataSource } from './types';
import { emptyMetadata } from './types';
import { decimalString, fraction, isoDateTime, nonEmptyString, parseIso6709, toNumber } from './values';

type Tags = Record<string, unknown>;

export async function extractVideoMetadata(source: MetadataSource): Promise<MediaMetadata> {
  const { filePath, mimeType, limits, fileName, name } = source;
  // ffprobe happily reports a cut-off MP4 whose index (moov) came first; its box sizes do not lie.
  if (ISOBMFF_MIME_TYPES.has(mimeType) && !(await isobmffFileIsComplete(filePath))) {
    throw new MediaError('corrupt', `${name}: file is truncated or malformed (its boxes do not fill the file)`);
  }
  const data = await ffprobe(filePath, name, limits.probeTimeoutSeconds);
  const video = data.streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  if (!video) throw new MediaError('unsupported', `${name}: no video stream`);
  const audio = data.streams.find((s) => s.codec_type === 'audio');
  const tags: Tags = { ...video.tags, ...data.format.tags };
  const tag = (...keys: string[]) => {
    for (const k of keys) {
      const v = nonEmptyString(typeof tags[k] === 'number' ? String(tags[k]) : tags[k]);
      if (v) return v;
    }
    return null;
  };

  // No -ee (ExtractEmbedded) for transport streams: ExifTool reads the camera's H.264 user data (AVCHD date,
  // make, model, GPS) from the first frames without it, while -ee would scan a whole multi-GB clip.
  const exif = await readTags(filePath);
  const meta = { ...emptyMetadata(), ...metadataFromTags(exif, null) };
  // ExifTool's dates first; ffprobe's (Apple's creationdate with its offset, else the UTC creation_time), then the file name.
  const probed = isoDateTime(tag('com.apple.quicktime.creationdate')) ?? isoDateTime(tag('creation_time'));
  if (!meta.creationTime && probed) {
    meta.creationTime = probed;
    meta.creationTimeSource = 'video';
  }
  if (!meta.creationTime && fileName) {
    const named = metadataFromTags({}, fileName);
    meta.creationTime = named.creationTime;
    meta.creationTimeSource = named.creationTimeSource;
  }

  const rotation = streamRotation(video);
  const swap = Math.abs(rotation) % 180 === 90;
  const width = toNumber(video.width);
  const height = toNumber(video.height);
  meta.width = (swap ? height : width) || null;
  meta.height = (swap ? width : height) || null;

  if (meta.latitude === null || meta.longitude === null) {
    const location = parseIso6709(tag('com.apple.quicktime.location.ISO6709', 'location', 'location-eng'));
    meta.latitude = location?.latitude ?? null;
    meta.longitude = location?.longitude ?? null;
  }
  meta.cameraMake ??= tag('com.apple.quicktime.make', 'com.android.manufacturer', 'make');
  meta.cameraModel ??= tag('com.apple.quicktime.model', 'com.android.model', 'model');
  meta.fps = decimalString(fraction(video.avg_frame_rate) ?? fraction(video.r_frame_rate));
  meta.captureFps = decimalString(toNumber(tag('com.apple.quicktime.capture.fps', 'com.android.capture.fps')));
  meta.contentIdentifier ??= tag('com.apple.quicktime.content.identifier');
  meta.softwareHint ??= tag('com.apple.quicktime.software', 'software', 'encoder');
  meta.userComment ??= tag('comment', 'description');
  meta.durationSeconds = duration(data, video, exif);
  meta.videoCodec = nonEmptyString(video.codec_name);
  meta.audioCodec = nonEmptyString(audio?.codec_name);
  meta.pixelFormat = nonEmptyString(video.pix_fmt);
  meta.container = containerName(data, mimeType);
  return meta;
}

/**
 * Display rotation in degrees: the display-matrix side data of the stream; older files and ffmpeg
 * versions carry a `rotate` tag instead.
 */
function streamRotation(stream: ProbeStream): number {
  for (const sideData of stream.side_data_list ?? []) {
    const rotation = toNumber(sideData.rotation);
    if (rotation !== null) return rotation;
  }
  return toNumber(stream.tags?.rotate) ?? 0;
}

/**
 * ffprobe's duration; for a transport stream ExifTool's (first to last PCR of the file), since ffprobe's
 * reading of a TS's duration is an estimate (0.544 s for a 0.450 s AVCHD clip).
 */
function duration(data: ProbeData, video: ProbeStream, exif: Tags): number | null {
  const seconds = toNumber(exif['M2TS:Duration']) ?? toNumber(data.format.duration) ?? toNumber(video.duration);
  return seconds !== null && seconds >= 0 ? Math.round(seconds * 1000) / 1000 : null;
}

/** ffprobe names the demuxer ("mov,mp4,m4a,3gp,3g2,mj2"); the brand and the sniffed type say which one it is. */
function containerName(data: ProbeData, mimeType: string): string | null {
  const format = data.format.format_name ?? '';
  const brand = String(data.format.tags?.major_brand ?? '').trim();
  if (format.startsWith('mov,mp4')) {
    if (brand === 'qt') return 'mov';
    if (brand.startsWith('M4V')) return 'm4v';
    if (brand.startsWith('3gp')) return '3gp';
    if (brand.startsWith('3g2')) return '3g2';
    if (!brand) return mimeType === 'video/quicktime' ? 'mov' : 'mp4';
    return 'mp4';
  }
  if (format.startsWith('matroska')) return mimeType === 'video/webm' ? 'webm' : 'matroska';
  return format.split(',')[0] || null;
}
