/**
 * sharp as the worker uses it. Libvips' operation cache keeps recently decoded images around,
 * which only helps when the same file is processed twice: off. One libvips thread per image keeps
 * a busy worker from using more than its share of cores; jobs run in parallel instead.
 */
import sharp from 'sharp';
import type { SharpOptions } from 'sharp';

sharp.cache(false);
sharp.concurrency(1);

/**
 * 16383², sharp's own default, spelled out: a bigger (or lying) header is refused before decoding.
 * Callers decoding an upload pass a lower limit from the item's memory share (limits.ts decodeLimits).
 */
export const LIMIT_INPUT_PIXELS = 0x3fff * 0x3fff;

/**
 * failOn 'error': the truncation checks in formats/integrity already caught cut-off files, and the
 * default 'warning' would also refuse the many real camera JPEGs with harmless decoder warnings
 * ("extraneous bytes before marker").
 */
/** `input`: the bytes, or a file's path (libvips then reads only what decoding needs). */
export function openImage(input: Buffer | string, options: SharpOptions = {}): sharp.Sharp {
  return sharp(input, { limitInputPixels: LIMIT_INPUT_PIXELS, failOn: 'error', ...options });
}

export { sharp };
