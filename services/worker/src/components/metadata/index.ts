import { basename } from 'node:path';
import { MediaError, errorMessage } from '../errors';
import { DEFAULT_LIMITS } from '../limits';
import type { ProcessingLimits } from '../limits';
import { isVideoMime } from '../mime';
import { extractImageMetadata } from './image';
import type { MediaMetadata } from './types';
import { extractVideoMetadata } from './video';

export type { CreationTimeSource, MediaMetadata } from './types';
export { emptyMetadata } from './types';
export { contractMetadata } from './contract';
export {
  closeExifTool,
  configureExifTool,
  DEFAULT_EXIFTOOL_PROCS,
  DEFAULT_EXIFTOOL_TIMEOUT_SECONDS,
  exifToolPids,
  exifToolRawPreview,
  extractRawPreview,
} from './exiftool';

/**
 * Everything the library shows or searches on, from the file at `filePath` whose sniffed type is
 * `mimeType`, within `limits`; `fileName` (the uploaded name) may hold the date when the file has none. Rejects with a MediaError — never throws anything else — when the file is truncated,
 * corrupt or has no picture in it.
 */
export async function extractMetadata(
  filePath: string,
  mimeType: string,
  limits: ProcessingLimits = DEFAULT_LIMITS,
  fileName: string | null = null,
): Promise<MediaMetadata> {
  const read = isVideoMime(mimeType) ? extractVideoMetadata : extractImageMetadata;
  try {
    return await read({ filePath, mimeType, limits, fileName, name: basename(filePath) });
  } catch (err) {
    if (err instanceof MediaError) throw err;
    // An I/O error (missing file, EACCES) may pass on retry; anything else is a reader tripping on the content.
    const io = typeof (err as NodeJS.ErrnoException | null)?.code === 'string';
    throw new MediaError(io ? 'tool' : 'corrupt', `cannot read metadata of ${filePath}: ${errorMessage(err)}`, {
      cause: err,
    });
  }
}
