/**
 * The OCR component as a step of the pipeline, for photos only (a video's frames are not read).
 * Words are extra information: a photo the engine fails on, or that takes longer than its limit,
 * still gets everything else, so it goes on without `words` (absent: not read, rather than read as
 * none). An engine that cannot be loaded is this worker's fault, not the photo's: a tool error, so
 * the queue retries the item later or on another worker.
 */
import type { Logger } from '@trove/kit';
import type { ProcessMediaItemV1 } from '@trove/proto-events';
import { DEFAULT_OCR_TIMEOUT_SECONDS, MediaError, OcrEngineError, readWords } from '../components';
import type { Bitmap, OcrOptions } from '../components';
import { timed } from './timing';

export interface OcrStepOptions {
  timeoutSeconds?: number;
  /** The reader (the tests give one that fails). */
  read?: (picture: Bitmap, options: OcrOptions) => Promise<string[]>;
}

export async function findWords(
  log: Logger,
  item: ProcessMediaItemV1,
  picture: Bitmap,
  { timeoutSeconds = DEFAULT_OCR_TIMEOUT_SECONDS, read = readWords }: OcrStepOptions = {},
): Promise<string[] | undefined> {
  try {
    const { value: words, ms } = await timed('ocr', () =>
      read(picture, { timeoutMs: timeoutSeconds * 1000, log }).catch((err: unknown) => {
        throw err instanceof OcrEngineError ? new MediaError('tool', err.message, { cause: err }) : err;
      }),
    );
    log.info({ mediaItemId: item.mediaItemId, ms, words: words.length }, 'text read');
    return words;
  } catch (err) {
    if (err instanceof MediaError && err.kind === 'tool') throw err;
    log.warn({ mediaItemId: item.mediaItemId, err }, 'text could not be read; the item goes on without words');
    return undefined;
  }
}
