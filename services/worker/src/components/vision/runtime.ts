/**
 * The TensorFlow.js runtime of the worker's vision components: one backend per process, set up
 * on first use and shared by every model.
 *
 * - `@tensorflow/tfjs-node` (native libtensorflow, all cores) when it is installed. It is declared
 *   nowhere because its install downloads libtensorflow; see the README for how to add it.
 * - Otherwise the wasm backend (`@tensorflow/tfjs-backend-wasm`), its .wasm binaries read from
 *   node_modules with fs: no fetch, no network. On Node it runs single-threaded SIMD (its
 *   multithreading flag is hard-wired off there, tfjs issue #3830): one core per process.
 */
import { dirname, sep } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-converter';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { errorMessage } from '../errors';

export interface VisionRuntime {
  backend: 'tensorflow' | 'wasm';
  /** Why tfjs-node is installed but not used, if it is. */
  fallbackReason?: string;
}

const TFJS_NODE = '@tensorflow/tfjs-node';

let ready: Promise<VisionRuntime> | null = null;

/** Sets the backend up once per process; a failed set-up is tried again by the next caller. */
export function visionRuntime(): Promise<VisionRuntime> {
  ready ??= setUp().catch((err: unknown) => {
    ready = null;
    throw err;
  });
  return ready;
}

async function setUp(): Promise<VisionRuntime> {
  const native = await useTfjsNode();
  const runtime: VisionRuntime =
    native === true
      ? { backend: 'tensorflow' }
      : { backend: await useWasm(), ...(native && { fallbackReason: native }) };
  // Skips the per-operation checks and debug bookkeeping meant for development.
  tf.enableProdMode();
  return runtime;
}

/**
 * True when tfjs-node is in use; false when it is not installed; the reason when it is installed
 * but unusable. It registers its backend in the tfjs-core it imports, so it only works here when
 * that is this tfjs-core (the same version, deduplicated by npm).
 */
async function useTfjsNode(): Promise<true | false | string> {
  try {
    require.resolve(TFJS_NODE);
  } catch {
    return false;
  }
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional and undeclared: only loaded when installed
    require(TFJS_NODE);
  } catch (err) {
    return `${TFJS_NODE} is installed but cannot be loaded: ${errorMessage(err)}`;
  }
  if (tf.findBackendFactory('tensorflow') === null)
    return `${TFJS_NODE} is installed for another version of @tensorflow/tfjs-core than ${tf.version_core}`;
  return (await tf.setBackend('tensorflow')) || `${TFJS_NODE} is installed but its backend did not initialise`;
}

async function useWasm(): Promise<VisionRuntime['backend']> {
  // Before setBackend, with the trailing separator: the prefix the .wasm file names are appended to.
  setWasmPaths(dirname(require.resolve('@tensorflow/tfjs-backend-wasm')) + sep);
  const before = {
    uncaughtException: process.listeners('uncaughtException'),
    unhandledRejection: process.listeners('unhandledRejection'),
  };
  const ok = await tf.setBackend('wasm');
  await tf.ready();
  detachEmscriptenHandlers(before);
  if (!ok) throw new Error('the TensorFlow.js wasm backend did not initialise');
  return 'wasm';
}

/**
 * The Emscripten glue of the wasm backend adds process-wide handlers while it initialises:
 * `uncaughtException` (rethrow) and `unhandledRejection` (`reason => { throw reason }`). They would
 * turn any unhandled rejection into a crash that bypasses the service's own handlers and names a
 * line of a 30 kB minified bundle as its source. The ones added during initialisation that look
 * like Emscripten's are removed.
 */
function detachEmscriptenHandlers(before: { uncaughtException: unknown[]; unhandledRejection: unknown[] }): void {
  const isEmscripten = (listener: unknown) => /ExitStatus|throw reason/.test(String(listener));
  for (const listener of process.listeners('uncaughtException')) {
    if (!before.uncaughtException.includes(listener) && isEmscripten(listener))
      process.removeListener('uncaughtException', listener);
  }
  for (const listener of process.listeners('unhandledRejection')) {
    if (!before.unhandledRejection.includes(listener) && isEmscripten(listener))
      process.removeListener('unhandledRejection', listener);
  }
}

export { tf };
