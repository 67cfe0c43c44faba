/**
 * ONNX models on onnxruntime-node's CPU build, each session created at most once per worker process, on first use,
 * and shared by every item the process handles (the things' and faces' models, converted from their tfjs graphs at vendor time:
 * scripts/tfjs-to-onnx.mjs). Several times faster than the tfjs wasm backend on the same network.
 */
import { join } from 'node:path';
import type { Logger } from '@trove/kit';
import * as ort from 'onnxruntime-node';
import { MODELS_DIR } from './model-files';
import { ModelLoadError } from './models';

/**
 * Every model's session (the OCR's too). One thread: the worker runs photos in parallel instead, and the machine is
 * shared. A memory arena without a memory pattern: a run's tensors come from the arena's kept blocks, bounded by one
 * run's peak at the largest input each component allows. Without an arena the pattern's large block was mapped and
 * zeroed on every run (2–4× the CPU); with both, the arena keeps that block too. Figures: Docs → Benchmarks.
 */
export const SESSION_OPTIONS: ort.InferenceSession.SessionOptions = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  enableCpuMemArena: true,
  enableMemPattern: false,
};

export const onnxModelPath = (name: string) => join(MODELS_DIR, name, `${name}.onnx`);

export interface SharedSessionOptions {
  /** Run once after loading: a first inference that pays the set-up before the first item. */
  prepare?: (session: ort.InferenceSession) => Promise<unknown>;
  /** The .onnx file, when not the committed `models/<name>/<name>.onnx`. */
  path?: string;
}

/**
 * A getter of the session of `models/<name>/<name>.onnx` (or `path`): the first call creates it, later calls share
 * it. A failure is a ModelLoadError and is not kept: the next call tries again.
 */
export function sharedSession(
  name: string,
  { prepare, path = onnxModelPath(name) }: SharedSessionOptions = {},
): (log?: Logger) => Promise<ort.InferenceSession> {
  let loading: Promise<ort.InferenceSession> | null = null;
  const load = async (log?: Logger) => {
    const started = process.hrtime.bigint();
    try {
      const session = await ort.InferenceSession.create(path, SESSION_OPTIONS);
      try {
        await prepare?.(session);
      } catch (err) {
        await session.release();
        throw err;
      }
      const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
      log?.info({ model: name, backend: 'onnxruntime', ms }, 'vision model loaded');
      return session;
    } catch (err) {
      throw new ModelLoadError(name, err);
    }
  };
  return (log) => {
    loading ??= load(log).catch((err: unknown) => {
      loading = null;
      throw err;
    });
    return loading;
  };
}

export { ort };
