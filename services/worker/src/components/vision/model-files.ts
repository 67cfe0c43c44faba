/**
 * Where the worker's model files are: `models/<name>/` at the root of the worker package, found
 * from the code's own location, so the same path works from src/ (tests) and dist/ (the service).
 * Each folder holds the files of one model — a tfjs graph (`<name>.json` and its weight shards), an ONNX file, or
 * both when the .onnx was converted from the graph (scripts/tfjs-to-onnx.mjs) — and a manifest.json giving their
 * source and sha256 (checked by the tests, re-fetched by scripts/vendor-models.sh).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { io } from '@tensorflow/tfjs-core';
import { tf } from './runtime';

/** The nearest directory at or above `from` that holds a package.json. */
export function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const MODELS_DIR = join(packageRoot(__dirname), 'models');

export const modelJsonPath = (name: string) => join(MODELS_DIR, name, `${name}.json`);

/**
 * A tfjs IOHandler reading model.json and its weight shards with fs: `loadGraphModel('file://…')`
 * needs tfjs-node, and the wasm runtime has no other way to read local files.
 */
export function fileModelHandler(jsonPath: string): io.IOHandler {
  const dir = dirname(jsonPath);
  return {
    async load() {
      const modelJson = JSON.parse(await readFile(jsonPath, 'utf8')) as io.ModelJSON;
      return tf.io.getModelArtifactsForJSON(modelJson, async (manifest) => {
        const shards: ArrayBuffer[] = [];
        for (const group of manifest) {
          for (const path of group.paths) {
            const bytes = await readFile(join(dir, path));
            shards.push(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
          }
        }
        return [tf.io.getWeightSpecs(manifest), tf.io.concatenateArrayBuffers(shards)];
      });
    },
  };
}
