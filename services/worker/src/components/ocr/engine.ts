/**
 * The tesseract.js engine: one per worker process, created on first use, everything from
 * node_modules (nothing is ever downloaded):
 * - the worker script is tesseract.js's Node worker (a worker_thread); the wasm core is
 *   `require`d by it from tesseract.js-core (tesseract.js ignores `corePath` in Node);
 * - `langPath` MUST be a local directory: unset, tesseract.js fetches the traineddata from a CDN.
 *   It is `@tesseract.js-data/eng`'s `4.0.0_best_int` (LSTM only, 2.9 MB gzipped);
 * - `cacheMethod: 'none'`: the default reads and writes `./eng.traineddata` in the process's cwd;
 * - an `errorHandler`: without one a failed job is also re-thrown inside tesseract's message
 *   callback, which nothing catches (the process would crash); the job's promise rejects anyway.
 */
import { dirname, join } from 'node:path';
import { createWorker, OEM, PSM } from 'tesseract.js';
import type { Worker } from 'tesseract.js';

export const TRAINEDDATA_DIR = join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
const WORKER_SCRIPT = require.resolve('tesseract.js/src/worker-script/node/index.js');

export async function createEngine(): Promise<Worker> {
  const worker = await createWorker('eng', OEM.LSTM_ONLY, {
    langPath: TRAINEDDATA_DIR,
    gzip: true,
    cacheMethod: 'none',
    workerPath: WORKER_SCRIPT,
    logger: () => {},
    errorHandler: () => {},
  });
  try {
    // Sparse text: signs, cards and labels anywhere in a photo, not a page of prose.
    await worker.setParameters({ tessedit_pageseg_mode: PSM.SPARSE_TEXT, user_defined_dpi: '300' });
  } catch (err) {
    await worker.terminate();
    throw err;
  }
  return worker;
}
