/**
 * The faces' ONNX models (converted at vendor time by scripts/tfjs-to-onnx.mjs from the vendored tfjs graphs): the
 * conversion reproduces the committed files byte for byte, and the converted models give what the tfjs models give —
 * FaceRes the same embeddings of the aligned faces of the group photo, BlazeFace the same faces, boxes and landmarks.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GraphModel } from '@tensorflow/tfjs-converter';
import { describeWithFixtures, FIXTURES } from '@trove/kit/testing/media';
import { tempDirPerFile } from '@trove/kit/testing';
import type { Bitmap } from '../bitmap';
import { makeImagePreviews } from '../previews';
import { expectConversionReproduced } from '../vision/conversion.fake';
import type { ort } from '../vision';
import { sharedModel, tf } from '../vision';
import { blazeface, findFaceBoxes } from './detector';
import type { Detection } from './detector';
import { describeFaces, embedderModel } from './embedder';
import { DEFAULT_FACES_MIN_SCORE, DEFAULT_FACES_MIN_SIZE, EMBEDDER } from '.';

const dir = tempDirPerFile('trove-onnx-');

/**
 * A tfjs graph model behind the part of onnxruntime's session interface the faces component calls (`run` with
 * named inputs, named outputs with `data`): the reference the ONNX models are compared with.
 */
function tfjsSession(model: GraphModel, outputs: string[]): ort.InferenceSession {
  return {
    async run(feeds: Record<string, ort.Tensor>) {
      const [name, input] = Object.entries(feeds)[0]!;
      const result = tf.tidy(() => {
        const x = tf.tensor(input.data as Float32Array, input.dims as number[]);
        const out = model.execute({ [name]: x }, outputs);
        return Array.isArray(out) ? out : [out];
      });
      const values = await Promise.all(result.map((t) => t.data()));
      tf.dispose(result);
      return Object.fromEntries(outputs.map((o, i) => [o, { data: values[i], dims: result[i]!.shape }]));
    },
  } as unknown as ort.InferenceSession;
}

describe.each(['faceres', 'blazeface-back'])('the %s conversion', (name) => {
  it('reproduces the committed .onnx byte for byte (the converter is deterministic)', async () => {
    await expectConversionReproduced(name, `${name}.onnx`, dir.file(`${name}.onnx`));
  }, 90_000);
});

describeWithFixtures('the ONNX models against the tfjs models they were converted from, on the group photo', () => {
  let group: Bitmap;
  beforeAll(async () => {
    const path = await dir.write('faces.jpg', await readFile(join(FIXTURES, 'faces.jpg')));
    group = (await makeImagePreviews(path, 'image/jpeg')).bitmap;
  }, 60_000);

  const options = { minScore: DEFAULT_FACES_MIN_SCORE, minSize: DEFAULT_FACES_MIN_SIZE };
  const OUTPUTS = ['Identity', 'Identity_1', 'Identity_2', 'Identity_3'];
  let faces: Detection[];

  it('BlazeFace: the same faces, boxes and landmarks within 1 px, scores within 0.001', async () => {
    faces = await findFaceBoxes(await blazeface(), group, options);
    const reference = await findFaceBoxes(tfjsSession(await sharedModel('blazeface-back')(), OUTPUTS), group, options);
    expect(faces.length).toBeGreaterThanOrEqual(8);
    expect(faces).toHaveLength(reference.length);
    for (const [i, face] of faces.entries()) {
      const ref = reference[i]!;
      expect(Math.abs(face.score - ref.score)).toBeLessThan(0.001);
      const points = (d: Detection) => [
        [d.x1, d.y1],
        [d.x2, d.y2],
        ...Object.values(d.landmarks).map((p) => [p.x, p.y]),
      ];
      const ours = points(face);
      for (const [k, [x, y]] of points(ref).entries())
        expect(Math.hypot(ours[k]![0]! - x!, ours[k]![1]! - y!)).toBeLessThan(1);
    }
  }, 120_000);

  it('FaceRes: the embeddings of the aligned faces agree, cosine ≥ 0.999', async () => {
    const spec = EMBEDDER;
    const onnx = await describeFaces(await embedderModel('faceres', spec)(), spec, group, faces);
    const tfjs = await describeFaces(tfjsSession(await sharedModel('faceres')(), [spec.output]), spec, group, faces);
    expect(onnx).toHaveLength(faces.length);
    for (const [i, { embedding, crop }] of onnx.entries()) {
      expect(crop.equals(tfjs[i]!.crop)).toBe(true);
      // Both unit length: the dot product is the cosine.
      expect(embedding.reduce((sum, v, k) => sum + v * tfjs[i]!.embedding[k]!, 0)).toBeGreaterThanOrEqual(0.999);
    }
  }, 120_000);
});
