// What the benchmark scripts share: the repository root, a require from it, `--name value` options, logging.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const require = createRequire(join(root, 'package.json'));

/** `--photos 40 --workers 2` → { photos: '40', workers: '2' }. */
export const args = Object.fromEntries(
  process.argv
    .slice(2)
    .join(' ')
    .split('--')
    .filter(Boolean)
    .map((a) => a.trim().split(/\s+/)),
);

export const log = (...a) => console.error('[bench]', ...a);

/**
 * Rounds of a timed loop run first and not counted, on every side (the store, the reference, the API).
 * Right after a cold start the services' first answers carry V8's first compiles of that path: at
 * 10 000 items the six slowest of 400 API answers (34–64 ms against a median of 14) all came in the
 * four rounds after a single warm-up round, and they made the p99. What a restart costs is measured
 * on its own (`cold_start_s_…`); the slowest warm-up answer is printed for information.
 */
export const WARM_UP_ROUNDS = 10;

/**
 * Runs each of `names` on every side WARM_UP_ROUNDS times (not counted), then `rounds` times, the
 * sides taking turns query by query; milliseconds by side and name, and each side's slowest warm-up
 * answer (`warmUpSlowestMs`).
 */
export async function timeRounds(names, rounds, sides) {
  const ms = Object.fromEntries(
    Object.keys(sides).map((side) => [side, Object.fromEntries(names.map((n) => [n, []]))]),
  );
  const warmUpSlowestMs = Object.fromEntries(Object.keys(sides).map((side) => [side, 0]));
  for (let round = 0; round < WARM_UP_ROUNDS + rounds; round++) {
    for (const name of names) {
      for (const [side, run] of Object.entries(sides)) {
        const t = performance.now();
        await run(name);
        const took = performance.now() - t;
        if (round >= WARM_UP_ROUNDS) ms[side][name].push(took);
        else warmUpSlowestMs[side] = Math.max(warmUpSlowestMs[side], took);
      }
    }
  }
  return { ...ms, warmUpSlowestMs };
}

/** The p-th percentile of ascending values. */
export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** How a ratio's name says the library's size: 100000 → `100k`. */
/** 1m, 100k, 10k, else the number: the sizes in the `ratio` names (`…_at_1m`, `…_100k_to_1m`). */
export const sizeLabel = (n) =>
  n % 1_000_000 === 0 ? `${n / 1_000_000}m` : n % 1000 === 0 ? `${n / 1000}k` : String(n);

/** Seconds since `started` (a `performance.now()`). */
export const secondsSince = (started) => (performance.now() - started) / 1000;

/**
 * Runs the script `self` as a child process of its own with `job` as JSON on its stdin, and answers
 * what it writes as JSON on stdout (the timers: a process without the bench's heap).
 */
export function runJobInChild(self, job, what) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [self], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${what} exited with ${code}`));
      try {
        resolve(JSON.parse(out));
      } catch (err) {
        reject(new Error(`${what}'s answer is not JSON: ${err.message}`));
      }
    });
    child.stdin.end(JSON.stringify(job));
  });
}
