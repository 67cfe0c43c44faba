/**
 * How much one item may cost a worker. Uploads may be up to 10 GiB and come from anyone with an
 * account, so every read is bounded in memory and every child process in time.
 */
import { availableParallelism } from 'node:os';
import { MediaError } from './errors';

export interface ProcessingLimits {
  /**
   * Largest still image accepted. Most formats are read from disk in pieces; raws and HEVC-coded
   * HEIF are read whole (their readers need the bytes in memory), so this also bounds that.
   */
  maxImageBytes: number;
  /** One ffprobe run (reading a video's metadata). */
  probeTimeoutSeconds: number;
  /** One ffmpeg run that decodes a single frame (a poster, a BMP). */
  frameTimeoutSeconds: number;
  /** One ffmpeg run that makes the web-playable copy of a video: the ceiling of its budget (transcodeBudgetSeconds). */
  transcodeTimeoutSeconds: number;
  /** The floor of a transcode's budget: what even a short clip gets. */
  transcodeMinSeconds: number;
  /** Seconds of transcoding allowed per second of 1080p video (scaled by the video's pixels). */
  transcodeSecondsPer1080pSecond: number;
  /**
   * Memory one item may use (the process's budget less its own, shared by the items it runs at
   * once; itemMemoryBytes). Decoders are refused pictures that would take more (decodeLimits).
   */
  itemMemoryBytes: number;
  /** Threads of one ffmpeg run (decoder, filters, encoder): the machine's cores over the items at once (ffmpegThreads). */
  ffmpegThreads: number;
}

/** What the worker process itself holds (code, models, OCR, gazetteer) before any item, in MiB. */
export const PROCESS_BASE_MIB = 512;

export const DEFAULT_LIMITS: ProcessingLimits = {
  maxImageBytes: 512 * 1024 ** 2,
  probeTimeoutSeconds: 60,
  frameTimeoutSeconds: 120,
  // Long enough for a 4K hour at veryfast on a small machine.
  transcodeTimeoutSeconds: 4 * 3600,
  transcodeMinSeconds: 120,
  transcodeSecondsPer1080pSecond: 4,
  itemMemoryBytes: itemMemoryBytes(2048, 2),
  ffmpegThreads: ffmpegThreads(2),
};

/**
 * Threads for one ffmpeg run while `concurrency` items run at once: the cores shared between them,
 * at least 1 and at most 4 (every decoding thread holds frames of its own: memory, not only CPU).
 */
export function ffmpegThreads(concurrency: number, cores = availableParallelism()): number {
  return Math.max(1, Math.min(4, Math.floor(cores / Math.max(1, concurrency))));
}

/** One item's share of a process memory budget (`memoryMib`, e.g. the pod's limit) running `concurrency` items. */
export function itemMemoryBytes(memoryMib: number, concurrency: number): number {
  return Math.max(64, Math.floor((memoryMib - PROCESS_BASE_MIB) / concurrency)) * 1024 ** 2;
}

/** Worst resident bytes per pixel of each decoder that holds a whole picture. */
const BYTES_PER_PIXEL = {
  /** libvips decoding a frame: 8-bit RGBA (JPEGs are shrunk while decoding and cost less). */
  libvips: 4,
  /**
   * libheif-wasm keeps the YUV planes and an RGBA copy in its heap and hands out two more RGBA copies
   * (13.5 B/px, with margin).
   */
  libheif: 16,
  /**
   * ffmpeg decoding a video holds its reference frames, 1.5 bytes a pixel each in 8-bit 4:2:0 (twice
   * that at 10 bits): up to 16 at 1080p, but the codec levels cap the decoded-picture buffer by area, so
   * 4K holds at most 6 and 8K (H.264/HEVC level 6.x) 5–6; plus a frame per decoding thread (one or two
   * here), and for a poster an RGB copy and the PNG encoder's. 22 B/px covers that for 8-bit and 10-bit
   * at those counts; a transcode's encoder works on the scaled (≤1080p) picture. With the default share
   * (768 MiB) that is 37 megapixels: phones' 8K video (33 MP) decodes, a 50 MP frame does not.
   */
  ffmpeg: 22,
} as const;

export interface DecodeLimits {
  /** libvips' limitInputPixels (checked from the header, before decoding). */
  libvipsPixels: number;
  /** Pixels of a HEIF's primary image libheif-wasm may decode (checked from the header). */
  libheifPixels: number;
  /** Largest file read whole into memory (HEVC HEIF, raws); libheif copies it into its heap too. */
  wholeFileBytes: number;
  /** Pixels of a frame ffmpeg may decode (videos, BMP, JPEG XL): checked from the declared size, and its `-max_pixels`. */
  ffmpegPixels: number;
}

/** The decoders' bounds from one item's memory share; libvips never beyond its own default, 16383². */
export function decodeLimits(limits: ProcessingLimits): DecodeLimits {
  const budget = limits.itemMemoryBytes;
  return {
    libvipsPixels: Math.min(0x3fff * 0x3fff, Math.floor(budget / BYTES_PER_PIXEL.libvips)),
    libheifPixels: Math.floor(budget / BYTES_PER_PIXEL.libheif),
    wholeFileBytes: Math.min(limits.maxImageBytes, Math.floor(budget / 4)),
    // ffmpeg's max_pixels is an int: at most INT_MAX.
    ffmpegPixels: Math.min(0x7fffffff, Math.floor(budget / BYTES_PER_PIXEL.ffmpeg)),
  };
}

/** Refuses a file to be read whole beyond the memory share, before it is read. */
export function assertWholeRead(bytes: number, limits: ProcessingLimits, name: string): void {
  const max = decodeLimits(limits).wholeFileBytes;
  if (bytes > max)
    throw new MediaError(
      'too-large',
      `${name}: ${mebibytes(bytes)} is more than the ${mebibytes(max)} this kind of file may have (it is decoded in memory)`,
    );
}

/** Refuses a picture whose declared size is beyond what a decoder may hold, before any pixel is decoded. */
export function assertPixels(width: number, height: number, max: number, name: string): void {
  if (width * height > max)
    throw new MediaError(
      'too-large',
      `${name}: ${width}x${height} is more than the ${(max / 1e6).toFixed(0)} megapixels a picture may have here (the worker's memory per item)`,
    );
}

/**
 * How long the web-playable copy of a video may take: `transcodeSecondsPer1080pSecond` per second
 * of video, scaled by its pixels relative to 1080p (no less than 1080p's), within the floor and
 * the ceiling. A video whose duration or size is unknown gets the floor: what it declares is all
 * there is to go by, and a file that hides it must not get the ceiling.
 */
export function transcodeBudgetSeconds(
  durationSeconds: number | null,
  width: number | null,
  height: number | null,
  limits: ProcessingLimits,
): number {
  const { transcodeMinSeconds: floor, transcodeTimeoutSeconds: ceiling } = limits;
  if (!durationSeconds || !width || !height || durationSeconds <= 0) return Math.min(floor, ceiling);
  const scale = Math.max(1, (width * height) / (1920 * 1080));
  const wanted = durationSeconds * scale * limits.transcodeSecondsPer1080pSecond;
  return Math.ceil(Math.min(ceiling, Math.max(floor, wanted)));
}

/** Refuses a still image above the size limit, before anything reads it. */
export function assertImageSize(bytes: number, limits: ProcessingLimits, name: string): void {
  if (bytes > limits.maxImageBytes) {
    throw new MediaError(
      'too-large',
      `${name}: ${mebibytes(bytes)} is more than the ${mebibytes(limits.maxImageBytes)} a photo may have`,
    );
  }
}

const mebibytes = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(bytes < 1024 ** 2 ? 3 : 0)} MiB`;
