/**
 * MIME type classes the processing steps branch on. The strings are the ones the kit's
 * `detectFileType` gives at upload time (the worker trusts them: it never sees an unsniffed file).
 */
export const RAW_MIME_TYPES: ReadonlySet<string> = new Set([
  'image/x-adobe-dng',
  'image/x-canon-cr2',
  'image/x-canon-cr3',
  'image/x-nikon-nef',
  'image/x-sony-arw',
  'image/x-olympus-orf',
  'image/x-panasonic-rw2',
  'image/x-leica-rwl',
  'image/x-fujifilm-raf',
  'image/x-minolta-mrw',
  'image/x-canon-crw',
  'image/x-sigma-x3f',
  'image/x-pentax-pef',
  'image/x-nikon-nrw',
  'image/x-samsung-srw',
  'image/x-hasselblad-3fr',
  'image/x-kodak-dcr',
  'image/x-kodak-kdc',
  'image/x-epson-erf',
  'image/x-mamiya-mef',
  'image/x-raw',
]);

/** HEIF-family stills; HEVC-coded ones need libheif (wasm), AV1-coded (AVIF) ones sharp reads itself (previews/heif.ts). */
export const HEIF_MIME_TYPES: ReadonlySet<string> = new Set([
  'image/heic',
  'image/heif',
  'image/heic-sequence',
  'image/heif-sequence',
  'image/avif',
]);

/** Files in the ISO base media format, whose box structure tells a truncated file. */
export const ISOBMFF_MIME_TYPES: ReadonlySet<string> = new Set([
  ...HEIF_MIME_TYPES,
  'image/x-canon-cr3',
  'video/mp4',
  'video/quicktime',
  'video/x-m4v',
  'video/3gpp',
  'video/3gpp2',
]);

export const isVideoMime = (mimeType: string): boolean => mimeType.startsWith('video/');
export const isRawMime = (mimeType: string): boolean => RAW_MIME_TYPES.has(mimeType);
export const isHeifMime = (mimeType: string): boolean => HEIF_MIME_TYPES.has(mimeType);
