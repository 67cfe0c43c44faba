/**
 * OCR: the words written in a photo (a sign, a card, a label), read by tesseract.js (LSTM,
 * English) on the greyscale picture. Only words of confident lines are kept: tesseract reads
 * texture as isolated letters with high confidence, so a line also needs a few letters or digits.
 * Measured on a 1600x1000 card: "HAPPY BIRTHDAY GRANDMA" read in about 220 ms once the engine is
 * loaded (0.5–0.9 s, once per process); photos without text give nothing, in 0.3–1.8 s.
 *
 * One engine per process; recognitions take turns (tesseract.js would queue them anyway), and
 * each has a time limit from the moment it starts. An engine that overruns it is terminated (it
 * cannot be interrupted otherwise) and the next photo gets a new one.
 */
import type { Line, Worker } from 'tesseract.js';
import type { Logger } from '@trove/kit';
import type { Bitmap } from '../bitmap';
import { errorMessage } from '../errors';
import { sharp } from '../previews/sharp';
import { createEngine } from './engine';

export interface OcrOptions {
  /** Longest a recognition may run. */
  timeoutMs: number;
  /** Told when the engine is loaded. */
  log?: Logger;
}

export const DEFAULT_OCR_TIMEOUT_SECONDS = 30;
/** Tesseract's line confidence (0–100) below which a line is dropped. */
const MIN_LINE_CONFIDENCE = 75;
/** Letters and digits a line needs: 1–2 character "lines" are almost always texture. */
const MIN_LINE_CHARS = 3;
/** Words shorter than this (after punctuation is stripped) are dropped. */
const MIN_WORD_LENGTH = 2;
/** The contract's bounds on the result. */
const MAX_WORDS = 1000;
const MAX_WORD_LENGTH = 64;
/** Long side the picture is brought to (tesseract's time grows with the pixels). */
const MAX_SIDE = 2000;

/** The engine could not be created: says nothing about the photo (another try, or worker, may do). */
export class OcrEngineError extends Error {
  constructor(cause: unknown) {
    super(`the OCR engine cannot be loaded: ${errorMessage(cause)}`, { cause });
    this.name = 'OcrEngineError';
  }
}

/** The photo took longer than its limit; the engine was terminated. */
export class OcrTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`text recognition took longer than ${timeoutMs} ms`);
    this.name = 'OcrTimeoutError';
  }
}

let engine: Promise<Worker> | null = null;
let turn: Promise<unknown> = Promise.resolve();

function sharedEngine(log?: Logger): Promise<Worker> {
  engine ??= (async () => {
    const started = Date.now();
    try {
      const worker = await createEngine();
      log?.info({ ms: Date.now() - started }, 'OCR engine loaded');
      return worker;
    } catch (err) {
      engine = null; // not kept: the next photo tries again
      throw new OcrEngineError(err);
    }
  })();
  return engine;
}

/** Ends this process's engine (the worker's shutdown; tests). */
export async function closeOcr(): Promise<void> {
  const current = engine;
  engine = null;
  if (current) await (await current.catch(() => null))?.terminate();
}

/** The words of the confident lines of an upright picture, in reading order, case kept. */
export function readWords(picture: Bitmap, options: OcrOptions): Promise<string[]> {
  const mine = turn.then(() => recognise(picture, options));
  turn = mine.catch(() => undefined);
  return mine;
}

async function recognise(picture: Bitmap, { timeoutMs, log }: OcrOptions): Promise<string[]> {
  const png = await sharp(picture.data, {
    raw: { width: picture.width, height: picture.height, channels: picture.channels as 1 | 2 | 3 | 4 },
  })
    .resize(MAX_SIDE, MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .greyscale()
    .png({ compressionLevel: 1 })
    .toBuffer();
  const worker = await sharedEngine(log);
  let timer: NodeJS.Timeout | undefined;
  const overrun = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OcrTimeoutError(timeoutMs)), timeoutMs);
  });
  try {
    const { data } = await Promise.race([worker.recognize(png, {}, { text: false, blocks: true }), overrun]);
    const lines: Line[] = (data.blocks ?? []).flatMap((b) => b.paragraphs.flatMap((p) => p.lines));
    return confidentWords(lines);
  } catch (err) {
    if (err instanceof OcrTimeoutError) {
      engine = null;
      await worker.terminate().catch(() => undefined);
    }
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

const alnumCount = (text: string) => (text.match(/[\p{L}\p{N}]/gu) ?? []).length;

function confidentWords(lines: Line[]): string[] {
  return lines
    .filter((line) => line.confidence >= MIN_LINE_CONFIDENCE && alnumCount(line.text) >= MIN_LINE_CHARS)
    .flatMap((line) => line.words.map((w) => w.text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')))
    .filter((word) => word.length >= MIN_WORD_LENGTH)
    .map((word) => word.slice(0, MAX_WORD_LENGTH))
    .slice(0, MAX_WORDS);
}
