/**
 * CenterNet's ONNX model (converted at vendor time by scripts/tfjs-to-onnx.mjs from the vendored tfjs graph): the
 * conversion reproduces the committed file byte for byte, and on the photos the project ships (and a noise photo
 * the tests make) the converted model's heads give the tfjs model's values, their decoding (./decode.ts) the tfjs graph's own
 * `tower_0/detections` rows, and the component the things the tfjs model gave — on the picture and on its mirror.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDirPerFile } from '@trove/kit/testing';
import { describeWithFixtures, FIXTURES, jpegAt } from '@trove/kit/testing/media';
import type { Bitmap } from '../bitmap';
import { makeImagePreviews } from '../previews';
import { expectConversionReproduced } from '../vision/conversion.fake';
import { letterbox, ort, sharedModel, tf } from '../vision';
import { CLASSES, decodeCenterNet, GRID } from './decode';
import type { Box } from './decode';
import {
  bestPerLabel,
  centernet,
  DEFAULT_THINGS_MIN_SCORE,
  detectThings,
  FLOOR,
  fuseMirrored,
  oneLabelPerObject,
} from '.';

const dir = tempDirPerFile('trove-things-onnx-');
const SIZE = 512;

it('the conversion reproduces the committed centernet.onnx byte for byte (the converter is deterministic)', async () => {
  await expectConversionReproduced('centernet', 'centernet.onnx', dir.file('centernet.onnx'));
}, 90_000);

/** The tfjs graph's heads and its own decoding (rows of x1, y1, x2, y2, score, class) of a [1, 512, 512, 3] input. */
async function tfjsPass(input: tf.Tensor4D) {
  const model = await sharedModel('centernet')();
  const outputs = model.execute({ 'tower_0/images': input }, [
    'tower_0/keypoints',
    'tower_0/wh',
    'tower_0/detections',
  ]) as tf.Tensor[];
  const [heatmap, wh, rows] = (await Promise.all(outputs.map((o) => o.data()))) as Float32Array[];
  tf.dispose(outputs);
  const boxes: Box[] = [];
  for (let i = 0; i < rows!.length; i += 6)
    if (rows![i + 4]! >= FLOOR)
      boxes.push({
        x1: rows![i]!,
        y1: rows![i + 1]!,
        x2: rows![i + 2]!,
        y2: rows![i + 3]!,
        score: rows![i + 4]!,
        cls: Math.round(rows![i + 5]!),
      });
  return { heatmap: heatmap!, wh: wh!, boxes };
}

function maxDifference(a: Float32Array, b: Float32Array): number {
  expect(a).toHaveLength(b.length);
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
  return max;
}

describeWithFixtures('the ONNX model against the tfjs model it was converted from', () => {
  const pictures: [string, () => Promise<Bitmap>][] = [
    ...['IMG_0543.HEIC', 'jobs.jpeg', 'faces.jpg'].map((name): [string, () => Promise<Bitmap>] => [
      name,
      async () => {
        const path = await dir.write(name, await readFile(join(FIXTURES, name)));
        return (await makeImagePreviews(path, name.endsWith('.HEIC') ? 'image/heic' : 'image/jpeg')).bitmap;
      },
    ]),
    [
      'a camera-like noise photo of the tests',
      async () => (await makeImagePreviews(await dir.write('noise.jpg', await jpegAt(10, 20)), 'image/jpeg')).bitmap,
    ],
  ];

  it.each(pictures)(
    '%s: the same heads (heatmap within 1e-5, extents within 0.05 px), decoded rows and things',
    async (_, picture) => {
      await sharedModel('centernet')(); // sets the tfjs runtime up too
      const image = await picture();
      const { rgb, scale } = await letterbox(image, SIZE);
      const session = await centernet();
      const passes: Box[][] = [];
      const reference: Box[][] = [];
      const input = tf.tensor4d(Float32Array.from(rgb), [1, SIZE, SIZE, 3]);
      const mirror = tf.reverse(input, 2);
      for (const x of [input, mirror]) {
        const data = (await x.data()) as Float32Array;
        const onnx = await session.run({ 'tower_0/images': new ort.Tensor('float32', data, [1, SIZE, SIZE, 3]) });
        const tfjs = await tfjsPass(x);
        const heatmap = onnx['tower_0/keypoints']!;
        const wh = onnx['tower_0/wh']!;
        expect(heatmap.dims).toEqual([1, GRID, GRID, CLASSES]);
        expect(wh.dims).toEqual([1, GRID, GRID, 4]);
        expect(maxDifference(heatmap.data as Float32Array, tfjs.heatmap)).toBeLessThan(1e-5);
        // Float32 sums in another order (onnxruntime's kernels against tfjs's): extents of up to hundreds of
        // px differ by about 0.01 px from run to run (0.0106 seen in CI); a twentieth of a pixel moves no box.
        expect(maxDifference(wh.data as Float32Array, tfjs.wh)).toBeLessThan(0.05);
        // The decoding in TypeScript of the tfjs heads is the graph's own decoding of them.
        expect(decodeCenterNet(tfjs.heatmap, tfjs.wh, FLOOR)).toEqual(tfjs.boxes);
        const decoded = decodeCenterNet(heatmap.data as Float32Array, wh.data as Float32Array, FLOOR);
        expect(decoded.map((b) => b.cls)).toEqual(tfjs.boxes.map((b) => b.cls));
        for (const [i, b] of decoded.entries()) {
          const ref = tfjs.boxes[i]!;
          expect(Math.abs(b.score - ref.score)).toBeLessThan(1e-5);
          for (const k of ['x1', 'y1', 'x2', 'y2'] as const) expect(Math.abs(b[k] - ref[k])).toBeLessThan(0.05);
        }
        passes.push(decoded);
        reference.push(tfjs.boxes);
      }
      tf.dispose([input, mirror]);
      const area = image.width * scale * (image.height * scale);
      const things = (boxes: Box[][]) =>
        bestPerLabel(oneLabelPerObject(fuseMirrored(boxes[0]!, boxes[1]!, SIZE)), area, DEFAULT_THINGS_MIN_SCORE);
      expect(things(passes)).toEqual(things(reference));
      expect(await detectThings(image, { minScore: DEFAULT_THINGS_MIN_SCORE })).toEqual(things(reference));
    },
    120_000,
  );
});
