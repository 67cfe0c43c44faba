/**
 * OCR: the words written in a photo (a sign, a card, a label, a page), case kept, in reading order.
 *
 * 1. PP-OCRv4's detector (paddle.ts) finds text lines at any angle. None: the photo has no text, and that is all it
 *    costs (one detector pass, ~150–250 ms of CPU; most photos end here).
 * 2. A few lines (signs, cards, labels, an angled book): each is turned level and read by PP-OCRv4's recogniser, read
 *    again upside down when poorly read (text turned 90° or 180° in the picture); only confident lines count.
 * 3. A page of text (many lines): tesseract.js (LSTM, English) reads the whole picture. PP-OCRv4's recogniser (a
 *    Chinese + Latin model, the only one shipped on npm) runs small Latin words together on dense pages; tesseract
 *    keeps their spaces.
 * Measured on 16 public text images (documents, signs, menus, a book photo): word recall 0.86 → 0.95+, and photos
 * without text 845 → ~200 ms.
 *
 * One engine of each per process; recognitions take turns, and each has a time limit from the moment it starts. A
 * tesseract engine that overruns it is terminated (it cannot be interrupted otherwise) and the next photo gets a new
 * one; a PP-OCR photo stops between lines.
 */
import type { Line, Worker } from 'tesseract.js';
import type { Logger } from '@trove/kit';
import type { Bitmap } from '../bitmap';
import { errorMessage } from '../errors';
import { sharp } from '../previews/sharp';
import { createEngine } from './engine';
import { detectLines, loadModels, readLine } from './paddle';
import type { Models, ReadLine } from './paddle';

export interface OcrOptions {
  /** Longest a recognition may run. */
  timeoutMs: number;
  /** Told when the engine is loaded. */
  log?: Logger;
}

export const DEFAULT_OCR_TIMEOUT_SECONDS = 30;
/**
 * A page of text, read by tesseract: many lines, nearly all level (a scan or a screenshot). Menu boards or a book
 * photographed at an angle have many lines too, but tilted ones: PP-OCR reads those, tesseract does not.
 */
const PAGE_LINES = 30;
const PAGE_MAX_TILTED = 0.15;
const TILT_RADIANS = 0.03;
/** PP-OCR's line confidence (0–1) below which a line is dropped, and below which it is also read upside down. */
const MIN_SCENE_CONFIDENCE = 0.8;
const FLIP_BELOW = 0.85;
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

/** One of the process's engines: loaded on first use and kept; a failed load is not kept (the next photo tries again). */
class Shared<T> {
  private loaded: Promise<T> | null = null;

  constructor(
    private readonly what: string,
    private readonly load: () => Promise<T>,
  ) {}

  get(log?: Logger): Promise<T> {
    this.loaded ??= (async () => {
      const started = Date.now();
      try {
        const value = await this.load();
        log?.info({ ms: Date.now() - started }, `${this.what} loaded`);
        return value;
      } catch (err) {
        this.loaded = null;
        throw new OcrEngineError(err);
      }
    })();
    return this.loaded;
  }

  /** Forgets it: the next use loads it again. */
  forget(): void {
    this.loaded = null;
  }

  /** Forgets it; resolves with what was loaded, if anything was. */
  async drop(): Promise<T | null> {
    const loaded = this.loaded;
    this.forget();
    return (await loaded?.catch(() => null)) ?? null;
  }
}

const engine = new Shared<Worker>('OCR engine', createEngine);
const models = new Shared<Models>('text detection models', loadModels);
let turn: Promise<unknown> = Promise.resolve();

/** Ends this process's engines (the worker's shutdown; tests). */
export async function closeOcr(): Promise<void> {
  const sessions = await models.drop();
  await Promise.all([sessions?.det.release(), sessions?.rec.release()]);
  await (await engine.drop())?.terminate();
}

/** The words of the confident lines of an upright picture, in reading order, case kept. */
export function readWords(picture: Bitmap, options: OcrOptions): Promise<string[]> {
  const mine = turn.then(() => recognise(picture, options));
  turn = mine.catch(() => undefined);
  return mine;
}

async function recognise(picture: Bitmap, options: OcrOptions): Promise<string[]> {
  const deadline = Date.now() + options.timeoutMs;
  const overdue = () => {
    if (Date.now() > deadline) throw new OcrTimeoutError(options.timeoutMs);
  };
  const paddle = await models.get(options.log);
  const lines = await detectLines(paddle, picture);
  if (lines.length === 0) return [];
  overdue();
  const tilted = lines.filter((line) => Math.abs(Math.sin(line.angle)) > TILT_RADIANS).length;
  if (lines.length >= PAGE_LINES && tilted <= PAGE_MAX_TILTED * lines.length)
    return readPage(picture, { ...options, timeoutMs: Math.max(1, deadline - Date.now()) });
  const read: ReadLine[] = [];
  for (const box of lines) {
    let line = await readLine(paddle, picture, box);
    if (line.confidence < FLIP_BELOW) {
      const flipped = await readLine(paddle, picture, box, true);
      if (flipped.confidence > line.confidence) line = flipped;
    }
    if (line.confidence >= MIN_SCENE_CONFIDENCE) read.push(line);
    overdue();
  }
  return sceneWords(read);
}

/** Lines top to bottom (a line's centre above another's top edge comes first), then left to right. */
function sceneWords(lines: ReadLine[]): string[] {
  const sorted = [...lines].sort((a, b) =>
    Math.abs(a.box.cy - b.box.cy) < Math.min(a.box.thick, b.box.thick) / 2 ? a.box.cx - b.box.cx : a.box.cy - b.box.cy,
  );
  return keepWords(
    sorted
      .filter((line) => alnumCount(line.text) >= MIN_LINE_CHARS)
      // NFKC: the recogniser's dictionary has full-width Latin letters; and it may drop the space after a comma.
      .flatMap((line) => line.text.normalize('NFKC').split(/\s+|(?<=\p{L})[,.;:“”"()](?=\p{L})/u)),
  );
}

async function readPage(picture: Bitmap, { timeoutMs, log }: OcrOptions): Promise<string[]> {
  const png = await sharp(picture.data, {
    raw: { width: picture.width, height: picture.height, channels: picture.channels as 1 | 2 | 3 | 4 },
  })
    .resize(MAX_SIDE, MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .greyscale()
    .png({ compressionLevel: 1 })
    .toBuffer();
  const worker = await engine.get(log);
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
      engine.forget();
      await worker.terminate().catch(() => undefined);
    }
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

const alnumCount = (text: string) => (text.match(/[\p{L}\p{N}]/gu) ?? []).length;

function confidentWords(lines: Line[]): string[] {
  return keepWords(
    lines
      .filter((line) => line.confidence >= MIN_LINE_CONFIDENCE && alnumCount(line.text) >= MIN_LINE_CHARS)
      .flatMap((line) => line.words.map((w) => w.text)),
  );
}

function keepWords(words: string[]): string[] {
  return words
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((word) => word.length >= MIN_WORD_LENGTH)
    .map((word) => word.slice(0, MAX_WORD_LENGTH))
    .slice(0, MAX_WORDS);
}
