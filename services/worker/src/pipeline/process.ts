/**
 * Processing of one uploaded original: download it to a temp file (streamed, never held in
 * memory), run the components (metadata, place, previews, things, faces, words, web-playable video, category), store the
 * derived blobs under the item's keys, publish the result. Everything it writes is keyed by the
 * item id, so processing an item twice (a redelivery after a crash) gives the same blobs and the
 * same result, which the media service applies idempotently.
 *
 * A file that is corrupt, unsupported or too large fails for good at once: retrying cannot change
 * the file, so its failure is published (media marks the item FAILED with the reason) and the work
 * item is done. Anything else (a tool, the blob store) is thrown, and the queue retries it.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { mediaBlobKey, mediaProcessedEvent, mediaProcessingFailedDeadLetter } from '@trove/proto-events';
import type { MediaItemProcessedV1, ProcessMediaItemV1 } from '@trove/proto-events';
import { BlobNotFoundError, DLQ_REASON_HEADER } from '@trove/kit';
import type { BlobStore, EventPublisher, Logger } from '@trove/kit';
import {
  assertImageSize,
  DEFAULT_LIMITS,
  contractMetadata,
  detectCategory,
  exifToolRawPreview,
  extractMetadata,
  makeImagePreviews,
  MediaError,
  makeVideoPreviews,
  transcodeIfNeeded,
} from '../components';
import type { Bitmap, MediaErrorKind, ProcessingLimits, RawPreviewSource } from '../components';
import { selectComponents } from './components';
import { findFaces, storeFaces, withoutAnimalFaces } from './faces';
import type { FacesStepOptions } from './faces';
import { findWords } from './ocr';
import { placeOf } from './place';
import type { PlaceFinder } from './place';
import { processTempDir } from './temp';
import { findThings } from './things';
import type { ThingsStepOptions } from './things';

export interface ProcessDeps {
  blobs: BlobStore;
  events: EventPublisher;
  log: Logger;
  /** Where the per-item temp directories go (default: this process's directory under TMPDIR, see temp.ts). */
  tempRoot?: string;
  /** Size and time bounds of the components (default: DEFAULT_LIMITS). */
  limits?: ProcessingLimits;
  /** Lowest score of a thing reported (default: DEFAULT_THINGS_MIN_SCORE). */
  thingsMinScore?: number;
  /** Lowest score and smallest size of a face reported (default: the faces component's). */
  faces?: Pick<FacesStepOptions, 'minScore' | 'minSize'>;
  /** Names the place of an item's GPS position (default: the places component with its default distance). */
  findPlace?: PlaceFinder;
  /** Longest text recognition of one photo (default: DEFAULT_OCR_TIMEOUT_SECONDS). */
  ocrTimeoutSeconds?: number;
  /** Where a raw's largest embedded preview comes from first (default: ExifTool's, then the previews' own raw reader). */
  rawPreview?: RawPreviewSource;
  /** Stand-ins for the things and faces models (default: the components' own; tests give what a picture holds). */
  detectors?: { things?: ThingsStepOptions['detect']; faces?: FacesStepOptions['detect'] };
}

/** `failed`: the file itself cannot be processed; its failure was published. */
export type Outcome = 'processed' | 'gone' | 'failed';

/** Properties of the file: processing it again gives the same answer. */
const FAILS_FOR_GOOD: ReadonlySet<MediaErrorKind> = new Set(['corrupt', 'unsupported', 'too-large']);

export async function processItem(deps: ProcessDeps, item: ProcessMediaItemV1): Promise<Outcome> {
  const info = await deps.blobs.head(item.originalKey);
  // The item was purged (or its user deleted) before we got to it: nothing to do.
  if (!info) return 'gone';
  const limits = deps.limits ?? DEFAULT_LIMITS;
  const isVideo = item.mediaItemType === 'video';
  const dir = await mkdtemp(join(deps.tempRoot ?? (await processTempDir()), 'item-'));
  const original = join(dir, `original${EXTENSIONS[item.mimeType] ?? ''}`);
  try {
    // A photo over the size limit is refused before its bytes are fetched.
    if (!isVideo) assertImageSize(info.size, limits, item.filename);
    try {
      const { body } = await deps.blobs.get(item.originalKey);
      await pipeline(body, createWriteStream(original));
    } catch (err) {
      if (err instanceof BlobNotFoundError) return 'gone';
      throw err;
    }

    // Only the components the item asks for (see components.ts); the metadata is the ground of all of them.
    const run = selectComponents(item, deps.log);
    const meta = await extractMetadata(original, item.mimeType, limits, item.filename);
    // The position the user gave the item wins over the file's (the media service sends it along).
    const place = run.runs('places') ? await placeOf(deps, item.mediaItemId, item.position ?? meta) : undefined;
    const previews = run.needsPicture
      ? isVideo
        ? await makeVideoPreviews(original, meta, limits)
        : await makeImagePreviews(original, item.mimeType, limits, {
            rawPreview: deps.rawPreview ?? exifToolRawPreview,
            declared: { width: meta.width, height: meta.height },
          })
      : null;
    // A file that decoded with a defect (a JPEG cut off before its end): READY, and said in the log.
    for (const warning of previews?.warnings ?? [])
      deps.log.warn(
        { mediaItemId: item.mediaItemId, warning: readableReason(warning, original, item.filename) },
        'media item decoded with a warning',
      );
    // From the picture the previews were made of: the photo, or the video's poster frame.
    const look = (picture: Bitmap) =>
      findThings(deps.log, item, picture, { minScore: deps.thingsMinScore, detect: deps.detectors?.things });
    const seen = previews && run.runs('things') ? await look(previews.bitmap) : undefined;
    const things = seen?.things;
    const found =
      previews && !isVideo && run.runs('faces')
        ? await findFaces(deps.log, item, previews.bitmap, { ...deps.faces, detect: deps.detectors?.faces })
        : null;
    // A pet's face is no person's: left out where the things detector saw an animal around it (and no person);
    // it looks for them also when the item's things are not asked for (a faces job, a user without things).
    const faces =
      found?.length && previews ? withoutAnimalFaces(found, (seen ?? (await look(previews.bitmap))).objects) : found;
    const words =
      previews && !isVideo && run.runs('ocr')
        ? await findWords(deps.log, item, previews.bitmap, { timeoutSeconds: deps.ocrTimeoutSeconds })
        : undefined;
    const playbackPath =
      isVideo && run.runs('previews')
        ? await transcodeIfNeeded(original, meta, join(dir, 'playback.mp4'), limits)
        : null;
    const category = detectCategory(meta, { filename: item.filename, mimeType: item.mimeType });

    const key = (variant: 'preview' | 'thumbnail' | 'playback') => mediaBlobKey(item.userId, item.mediaItemId, variant);
    if (previews && run.runs('previews')) {
      await deps.blobs.put(key('preview'), Readable.from(previews.preview), { contentType: previews.previewMimeType });
      await deps.blobs.put(key('thumbnail'), Readable.from(previews.thumbnail), {
        contentType: previews.thumbnailMimeType,
      });
    }
    if (playbackPath)
      await deps.blobs.put(key('playback'), createReadStream(playbackPath), { contentType: 'video/mp4' });
    const processedFaces = faces && (await storeFaces(deps.blobs, item, faces));

    const result: MediaItemProcessedV1 = {
      userId: item.userId,
      mediaItemId: item.mediaItemId,
      mimeType: item.mimeType,
      metadata: contractMetadata(meta, info.lastModified ?? new Date()),
      category,
      placeholder: previews?.placeholder || null,
      variants: {
        preview: key('preview'),
        thumbnail: key('thumbnail'),
        playback: playbackPath ? key('playback') : null,
      },
      ...(things !== undefined ? { things } : {}),
      ...(place !== undefined ? { place } : {}),
      // Photos only, when asked for: a video's result has no `faces` at all.
      ...(processedFaces ? { faces: processedFaces } : {}),
      // Photos only, when asked for, and only when the text was read: absent otherwise.
      ...(words ? { words } : {}),
      ...(run.carried ? { components: run.carried } : {}),
      ...(item.jobId ? { jobId: item.jobId } : {}),
    };
    await deps.events.publish(mediaProcessedEvent, result, {
      // Once per item, job and round: a later job's or edit's result is not a duplicate of the upload's.
      msgId: `processed-${[item.mediaItemId, item.jobId ?? item.round].filter(Boolean).join('-')}`,
    });
    return 'processed';
  } catch (err) {
    // The reason is kept on the item: name the user's file, not our temp path.
    const reason = readableReason(err, original, item.filename);
    if (!(err instanceof MediaError && FAILS_FOR_GOOD.has(err.kind))) throw new Error(reason, { cause: err });
    // A job's rerun: the item keeps its state; the job counts it done (job-item.ts).
    if (item.jobId) return 'failed';
    await deps.events.publish(mediaProcessingFailedDeadLetter, item, {
      msgId: `failed-${item.mediaItemId}`,
      headers: { [DLQ_REASON_HEADER]: oneLine(reason) },
    });
    deps.log.warn(
      { mediaItemId: item.mediaItemId, kind: err.kind, reason },
      'media item failed: the file cannot be processed',
    );
    return 'failed';
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function readableReason(err: unknown, tempPath: string, filename: string): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split(tempPath).join(filename).split(basename(tempPath)).join(filename);
}

/** Header values are one line, and the media service keeps at most 1000 characters of a reason. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').slice(0, 1000);

/** Temp file extensions: some decoders (ffmpeg's demuxer probing among them) do better with one. */
const EXTENSIONS: Record<string, string> = {
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/bmp': '.bmp',
  'image/tiff': '.tif',
  'image/heic': '.heic',
  'image/heif': '.heif',
  'image/avif': '.avif',
  'image/jxl': '.jxl',
  'image/x-adobe-dng': '.dng',
  'image/x-canon-cr2': '.cr2',
  'image/x-canon-cr3': '.cr3',
  'image/x-nikon-nef': '.nef',
  'image/x-sony-arw': '.arw',
  'image/x-olympus-orf': '.orf',
  'image/x-panasonic-rw2': '.rw2',
  'image/x-leica-rwl': '.rwl',
  'image/x-fujifilm-raf': '.raf',
  'image/x-minolta-mrw': '.mrw',
  'image/x-canon-crw': '.crw',
  'image/x-sigma-x3f': '.x3f',
  'image/x-pentax-pef': '.pef',
  'image/x-nikon-nrw': '.nrw',
  'image/x-samsung-srw': '.srw',
  'image/x-hasselblad-3fr': '.3fr',
  'image/x-kodak-dcr': '.dcr',
  'image/x-kodak-kdc': '.kdc',
  'image/x-epson-erf': '.erf',
  'image/x-mamiya-mef': '.mef',
  // ExifTool's type for Phase One IIQ (the only image/x-raw the upload gives).
  'image/x-raw': '.iiq',
  'video/mp4': '.mp4',
  'video/x-m4v': '.m4v',
  'video/quicktime': '.mov',
  'video/3gpp': '.3gp',
  'video/3gpp2': '.3g2',
  'video/x-matroska': '.mkv',
  'video/webm': '.webm',
  'video/x-msvideo': '.avi',
  'video/mp2t': '.ts',
  'video/m2ts': '.m2ts',
};
