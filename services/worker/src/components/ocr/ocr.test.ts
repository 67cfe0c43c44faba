/**
 * Text recognition on pictures made here: a greeting card in large type must be read, a picture
 * without text gives nothing, a photo over its time limit fails without harming the next one, and
 * nothing is written to the working directory (tesseract.js's default cache would be).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { noiseJpeg, textCardJpeg } from '@trove/kit/testing/media';
import type { Bitmap } from '../bitmap';
import { TRAINEDDATA_DIR } from './engine';
import { MODELS_DIR } from '../vision/model-files';
import { closeOcr, OcrTimeoutError, readWords } from '.';
import * as paddle from './paddle';

// The recogniser's steps as they are, observed: which of them a picture reaches.
jest.mock('./paddle', () => {
  const actual = jest.requireActual<typeof paddle>('./paddle');
  return { ...actual, detectLines: jest.fn(actual.detectLines), readLine: jest.fn(actual.readLine) };
});

async function bitmapOf(jpeg: Buffer): Promise<Bitmap> {
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

const options = { timeoutMs: 60_000 };

describe('OCR', () => {
  const cwdBefore = readdirSync(process.cwd());
  afterAll(closeOcr);

  it('reads the large words of a greeting card, in order', async () => {
    const words = await readWords(await bitmapOf(await textCardJpeg()), options);
    expect(words.slice(0, 3)).toEqual(['HAPPY', 'BIRTHDAY', 'GRANDMA']);
  }, 60_000);

  it('reads nothing in a picture without text', async () => {
    expect(await readWords(await bitmapOf(await noiseJpeg(800, 600)), options)).toEqual([]);
    expect(
      await readWords({ data: Buffer.alloc(64 * 48 * 3, 200), width: 64, height: 48, channels: 3 }, options),
    ).toEqual([]);
  }, 60_000);

  it('reads a card turned 90° and 180° in the picture', async () => {
    const card = await textCardJpeg(['OPEN ALL DAY', 'BAKERY']);
    for (const angle of [90, 180]) {
      const { data, info } = await sharp(card).rotate(angle).raw().toBuffer({ resolveWithObject: true });
      const words = await readWords({ data, width: info.width, height: info.height, channels: info.channels }, options);
      expect([angle, words]).toEqual([angle, expect.arrayContaining(['BAKERY', 'OPEN'])]);
    }
  }, 60_000);

  it('a photo without text ends after text detection: no line is recognised, no page read', async () => {
    // ~200 ms of CPU on the development machine; tesseract on the same picture took 0.3–1.8 s. Checked by the steps
    // it takes rather than by CPU time, which a busy machine inflates (one CI run measured 1.5 s).
    const photo = await bitmapOf(await noiseJpeg(2048, 1536));
    const [detect, read] = [jest.mocked(paddle.detectLines), jest.mocked(paddle.readLine)];
    detect.mockClear();
    read.mockClear();
    expect(await readWords(photo, options)).toEqual([]);
    expect(detect).toHaveBeenCalledTimes(1);
    await expect(detect.mock.results[0]!.value).resolves.toEqual([]);
    expect(read).not.toHaveBeenCalled();
  }, 60_000);

  it('a photo over the time limit fails; the next one gets a new engine', async () => {
    const card = await bitmapOf(await textCardJpeg(['OPEN ALL DAY', 'BAKERY']));
    await expect(readWords(card, { timeoutMs: 1 })).rejects.toBeInstanceOf(OcrTimeoutError);
    expect(await readWords(card, options)).toEqual(expect.arrayContaining(['BAKERY']));
  }, 60_000);

  it('photos read at the same time take turns and each gets its own words', async () => {
    const [a, b] = await Promise.all(
      [textCardJpeg(['FRESH FISH', 'MARKET']), textCardJpeg(['PLATFORM', 'NORTH'])].map(async (j) => bitmapOf(await j)),
    );
    const [wordsA, wordsB] = await Promise.all([readWords(a!, options), readWords(b!, options)]);
    expect(wordsA).toEqual(expect.arrayContaining(['MARKET']));
    expect(wordsB).toEqual(expect.arrayContaining(['PLATFORM']));
  }, 60_000);

  it('takes its language data from node_modules and leaves the working directory alone', () => {
    expect(existsSync(join(TRAINEDDATA_DIR, 'eng.traineddata.gz'))).toBe(true);
    expect(existsSync(join(MODELS_DIR, 'ppocr-v4', 'ch_PP-OCRv4_det_infer.onnx'))).toBe(true);
    expect(readdirSync(process.cwd())).toEqual(cwdBefore);
  });
});
