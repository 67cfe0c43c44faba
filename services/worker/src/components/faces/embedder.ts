/**
 * What a face looks like, as a vector: each face is first aligned — its landmarks mapped by a
 * similarity transform onto the model's canonical crop — then described by the embedding model
 * and scaled to unit length, so that the cosine distance of two faces is 1 − their dot product.
 */
import type { Bitmap } from '../bitmap';
import { ort, sharedSession } from '../vision';
import type { Landmarks, Point } from './geometry';
import { fitSimilarity, landmarkPoints } from './geometry';
import { alignedRgb } from './pixels';

/** How an embedding model is fed. */
export interface EmbedderSpec {
  input: string;
  output: string;
  /** Side of the square input, pixels. */
  size: number;
  /** Values per embedding. */
  length: number;
  /** Where the landmarks go in the input (see geometry's `landmarkPoints` for the order). */
  template: readonly Point[];
  /** Input value of an RGB byte v: v × scale + offset. */
  scale: number;
  offset: number;
}

/** A face described: its embedding, and the aligned crop it was computed from (RGB, size × size × 3). */
export interface Described {
  embedding: Float32Array;
  crop: Buffer;
}

/** Faces per execution: bounds the backend's memory. */
const BATCH = 8;

/** One unit-length embedding per face, in the order given, with the aligned crop it was made from. */
export async function describeFaces(
  model: ort.InferenceSession,
  spec: EmbedderSpec,
  picture: Bitmap,
  faces: readonly { landmarks: Landmarks }[],
): Promise<Described[]> {
  const { size, length, input: inputName, output: outputName, scale, offset, template } = spec;
  const described: Described[] = [];
  for (let start = 0; start < faces.length; start += BATCH) {
    const batch = faces.slice(start, start + BATCH);
    const crops = batch.map((f) => alignedRgb(picture, fitSimilarity(template, landmarkPoints(f.landmarks)), size));
    const input = new Float32Array(batch.length * size * size * 3);
    for (const [i, crop] of crops.entries())
      for (let k = 0; k < crop.length; k++) input[i * crop.length + k] = crop[k] * scale + offset;
    const outputs = await model.run({ [inputName]: new ort.Tensor('float32', input, [batch.length, size, size, 3]) });
    const values = outputs[outputName]!.data as Float32Array;
    for (const [i, crop] of crops.entries())
      described.push({ embedding: unitLength(values.slice(i * length, (i + 1) * length)), crop });
  }
  return described;
}

/**
 * A shared loader of the model `models/<name>/<name>.onnx` (or `path`) that runs it once on zeros when loaded
 * (kernels set up at load).
 */
export function embedderModel(name: string, spec: EmbedderSpec, path?: string) {
  return sharedSession(name, {
    ...(path ? { path } : {}),
    prepare: (session) =>
      session.run({
        [spec.input]: new ort.Tensor('float32', new Float32Array(spec.size * spec.size * 3), [
          1,
          spec.size,
          spec.size,
          3,
        ]),
      }),
  });
}

function unitLength(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] /= norm;
  return v;
}
