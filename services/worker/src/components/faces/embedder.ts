/**
 * What a face looks like, as a vector: FaceRes (models/faceres, see its README), 1024 values
 * scaled to unit length, so that the cosine distance of two faces is 1 − their dot product.
 */
import type { GraphModel } from '@tensorflow/tfjs-converter';
import type { Bitmap } from '../bitmap';
import { sharedModel, tf } from '../vision';
import type { Rect } from './geometry';
import { squareAround } from './geometry';
import { squareRgb } from './pixels';

const INPUT = 'input_1';
const INPUT_SIZE = 224;
const DESCRIPTOR = 'global_pooling/Mean';
export const EMBEDDING_LENGTH = 1024;
/** The crop around a face, as a multiple of its long side (what the model was used with upstream). */
const CROP_SCALE = 1.4;
/** Faces per execution: bounds the backend's memory (8 inputs are 4.8 MB, their activations ~130 MB of wasm heap). */
const BATCH = 8;

export const faceres = sharedModel('faceres', {
  prepare: (model) =>
    tf.tidy(() => void model.execute({ [INPUT]: tf.zeros([1, INPUT_SIZE, INPUT_SIZE, 3]) }, DESCRIPTOR)),
});

/** One unit-length embedding per face, in the order given. */
export async function embedFaces(model: GraphModel, picture: Bitmap, faces: readonly Rect[]): Promise<Float32Array[]> {
  const embeddings: Float32Array[] = [];
  for (let start = 0; start < faces.length; start += BATCH) {
    const batch = faces.slice(start, start + BATCH);
    const input = new Float32Array(batch.length * INPUT_SIZE * INPUT_SIZE * 3);
    for (const [i, face] of batch.entries())
      input.set(await squareRgb(picture, squareAround(face, CROP_SCALE), INPUT_SIZE), i * INPUT_SIZE * INPUT_SIZE * 3);
    const output = tf.tidy(
      () =>
        model.execute(
          { [INPUT]: tf.tensor4d(input, [batch.length, INPUT_SIZE, INPUT_SIZE, 3]) },
          DESCRIPTOR,
        ) as tf.Tensor,
    );
    let values: Float32Array;
    try {
      values = (await output.data()) as Float32Array;
    } finally {
      output.dispose();
    }
    for (let i = 0; i < batch.length; i++)
      embeddings.push(unitLength(values.slice(i * EMBEDDING_LENGTH, (i + 1) * EMBEDDING_LENGTH)));
  }
  return embeddings;
}

function unitLength(v: Float32Array): Float32Array {
  const norm = Math.hypot(...v);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] /= norm;
  return v;
}
