import path from 'node:path';
import { SERVER_EXTENSIONS } from './generated/extensions';

/**
 * Other spellings cameras, phones and editors give the same formats: the server sniffs content, never names, so these
 * are the formats of SERVER_EXTENSIONS under another name (JPEG, TIFF, Fujifilm's HEIF `.hif`, AVCHD's `.mts`, HDV's
 * MPEG-TS `.m2t`, QuickTime's `.qt`).
 */
export const EXTENSION_ALIASES: Readonly<Record<string, string>> = {
  jpeg: 'jpg',
  jpe: 'jpg',
  tiff: 'tif',
  hif: 'heif',
  mts: 'm2ts',
  m2t: 'ts',
  qt: 'mov',
};

const SUPPORTED = new Set([...SERVER_EXTENSIONS, ...Object.keys(EXTENSION_ALIASES)]);

/** Whether a file's name says it is of a format the server accepts (case does not matter: `IMG_0001.JPG`). */
export function isSupportedName(name: string): boolean {
  return SUPPORTED.has(path.extname(name).slice(1).toLowerCase());
}
