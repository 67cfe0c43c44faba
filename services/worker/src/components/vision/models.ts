/**
 * The vision models, each loaded at most once per worker process, on first use, and shared by
 * every item the process handles.
 */
import type { GraphModel } from '@tensorflow/tfjs-converter';
import { loadGraphModel } from '@tensorflow/tfjs-converter';
import type { Logger } from '@trove/kit';
import { errorMessage } from '../errors';
import { fileModelHandler, modelJsonPath } from './model-files';
import { tf, visionRuntime } from './runtime';

/**
 * A model that cannot be loaded: missing or damaged files, a runtime that does not start. It says
 * nothing about the item being processed, which another worker (or a later try) can do.
 */
export class ModelLoadError extends Error {
  constructor(
    readonly model: string,
    cause: unknown,
  ) {
    super(`the ${model} model cannot be loaded: ${errorMessage(cause)}`, { cause });
    this.name = 'ModelLoadError';
  }
}

export interface SharedModelOptions {
  /** Run once after loading, e.g. a first inference that pays the kernels' set-up before the first item. */
  prepare?: (model: GraphModel) => void;
  /** The model.json, when not the committed `models/<name>/<name>.json`. */
  jsonPath?: string;
}

/**
 * A getter of the model `models/<name>/<name>.json` (or `jsonPath`): the first call loads it (and
 * sets the runtime up), later calls share that load. A failed load is not kept: the next call
 * tries again.
 */
export function sharedModel(name: string, options: SharedModelOptions = {}): (log?: Logger) => Promise<GraphModel> {
  let loading: Promise<GraphModel> | null = null;
  return (log) => {
    loading ??= load(name, options, log).catch((err: unknown) => {
      loading = null;
      throw err;
    });
    return loading;
  };
}

async function load(
  name: string,
  { prepare, jsonPath = modelJsonPath(name) }: SharedModelOptions,
  log: Logger | undefined,
): Promise<GraphModel> {
  const started = process.hrtime.bigint();
  try {
    const runtime = await visionRuntime();
    if (runtime.fallbackReason) log?.warn({ reason: runtime.fallbackReason }, 'vision runtime: tfjs-node not used');
    const model = await loadGraphModel(fileModelHandler(jsonPath));
    try {
      prepare?.(model);
    } catch (err) {
      model.dispose(); // its weights would stay in the backend's memory for good
      throw err;
    }
    const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
    log?.info({ model: name, backend: runtime.backend, ms, tensors: tf.memory().numTensors }, 'vision model loaded');
    return model;
  } catch (err) {
    throw new ModelLoadError(name, err);
  }
}
