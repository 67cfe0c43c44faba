import { setFlagsFromString } from 'node:v8';

/**
 * V8 grows the process's old generation by a fixed factor of 2 between major collections rather
 * than by its dynamic factor. Imported first by the entrypoints of the gateway and the worker
 * (`import '@trove/kit/heap-growth'`), before anything is allocated.
 *
 * Why: V8 picks the dynamic factor at every major collection from how fast it collects against how
 * fast the program moves objects into the old generation. During a burst of uploads, chunks in
 * flight survive into the old generation quickly, so a major collection then (the memory reducer's,
 * or one on reaching the limit) chose the minimum, 1.1: the room left before the next collection
 * was smaller than the young generation, and V8 began marking again straight after each collection.
 * The gateway stayed in that state for the rest of its life: ~75 major collections in a bench run
 * instead of 2–4, twice the CPU per upload, `upload_vs_minimal_server` ~0.6 instead of ~0.82. One
 * major collection forced in the middle of the upload rounds reproduced it (2 runs of 2); with the
 * fixed factor the same forced collection left the gateway normal (6 of 6; README, performance).
 * The worker's decoded pictures and model tensors do the same: with the fixed factor it spent
 * 14.6 s of CPU on 20 photos instead of 16.5 (`make bench`'s ingest rounds), less than the
 * single-process baseline, at the same peak memory (~740 MiB with its ExifTool processes).
 *
 * Cost: the heap may grow to about twice its live size before it is collected.
 */
setFlagsFromString('--heap-growing-percent=100');
