/**
 * HEIF (HEVC-coded HEIC above all) through libheif compiled to wasm (npm `libheif-js`), for what the
 * prebuilt libvips cannot open: it has no HEVC decoder, and its file reader gives up ("bad seek")
 * on some phone files that libheif reads from memory without trouble.
 *
 * The PRIMARY image is decoded: a phone's HEIC also holds thumbnails, depth and gain maps and other
 * auxiliary images, and a file may have several top-level images of which the first is not the
 * primary one. libheif assembles grids and applies the irot/imir transforms itself, so the pixels
 * come out upright and the size is the displayed one (EXIF orientation is not applied again, as
 * heif-info and ExifTool report it). The wasm decoder has no pixel limit of its own: the size read
 * from the file is checked against `maxPixels` (the item's memory share, limits.ts) before any
 * pixel is decoded. Wasm memory never shrinks: what one decode grew it to stays for the process.
 */
import libheif from 'libheif-js/wasm-bundle';
import { MediaError } from '../errors';
import { assertPixels } from '../limits';

export interface RgbaImage {
  width: number;
  height: number;
  /** RGBA, 4 bytes per pixel, row by row. */
  data: Buffer;
}

const hasCode = (value: unknown): value is { code: unknown } =>
  typeof value === 'object' && value !== null && 'code' in value;

/** The primary image of the HEIF file in `buf`, decoded; a `corrupt` or `too-large` MediaError otherwise. */
export async function decodeHeifPrimary(buf: Uint8Array, name: string, maxPixels: number): Promise<RgbaImage> {
  await libheif.ready;
  const corrupt = (why: string) => new MediaError('corrupt', `${name}: cannot decode HEIF: ${why}`);
  const context = libheif.heif_context_alloc();
  if (!context) throw new MediaError('tool', `${name}: libheif could not allocate a decoding context`);
  const images: Array<InstanceType<typeof libheif.HeifImage>> = [];
  try {
    const read = libheif.heif_context_read_from_memory(context, buf);
    if (read.code !== libheif.heif_error_code.heif_error_Ok) throw corrupt(read.message);
    const ids = libheif.heif_js_context_get_list_of_top_level_image_IDs(context);
    if (!Array.isArray(ids) || ids.length === 0) throw corrupt('the file has no image');
    for (const id of ids) {
      const handle = libheif.heif_js_context_get_image_handle(context, id);
      if (handle && !hasCode(handle)) images.push(new libheif.HeifImage(handle));
    }
    const primary = images.find((image) => image.is_primary()) ?? images[0];
    if (!primary) throw corrupt('none of its images can be read');
    const width = primary.get_width();
    const height = primary.get_height();
    // The size the file declares (a grid's whole), read from its header: checked before any pixel is decoded.
    assertPixels(width, height, maxPixels, name);
    if (width <= 0 || height <= 0) throw corrupt(`the primary image has no size (${width}x${height})`);
    const data = new Uint8ClampedArray(width * height * 4);
    const decoded = await new Promise<boolean>((resolve) =>
      primary.display({ data, width, height }, (result) => resolve(result !== null)),
    );
    if (!decoded) throw corrupt('the primary image does not decode');
    return { width, height, data: Buffer.from(data.buffer, data.byteOffset, data.byteLength) };
  } finally {
    for (const image of images) image.free();
    libheif.heif_context_free(context);
  }
}
