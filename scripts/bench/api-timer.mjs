// Times GET requests against the API from a process of its own, as a lean client would make them:
// the benchmark that seeded a library holds its plan (tens of MB to GBs), and that heap's garbage
// collections (a full one every few hundred ms while 150 kB answers arrive) would be counted as the
// API's latency. Each request is sent and its JSON read whole, as a client does.
//
// As a module: `timeApi({ base, authorization, paths, rounds })` → `{ ms, warmUpSlowestMs }`: the
// milliseconds by name of `rounds` rounds, after WARM_UP_ROUNDS not counted (their slowest answer is
// given on its own). Run directly, it reads that job as JSON on stdin and writes
// the figures as JSON on stdout.
import { fileURLToPath } from 'node:url';
import { WARM_UP_ROUNDS, runJobInChild } from '../bench-common.mjs';

const SELF = fileURLToPath(import.meta.url);

/**
 * @param {{ base: string, authorization: string, paths: Record<string, string>, rounds: number }} job
 * @returns {Promise<{ ms: Record<string, number[]>, warmUpSlowestMs: number }>}
 */
export function timeApi(job) {
  return runJobInChild(SELF, job, 'the API timer');
}

/** The timed loop: every path once per round, in order, so that each sees the same conditions. */
async function run({ base, authorization, paths, rounds }) {
  const ms = Object.fromEntries(Object.keys(paths).map((name) => [name, []]));
  let warmUpSlowestMs = 0;
  const headers = { Authorization: authorization };
  for (let round = 0; round < WARM_UP_ROUNDS + rounds; round++) {
    for (const [name, path] of Object.entries(paths)) {
      const t = performance.now();
      const res = await fetch(`${base}${path}`, { headers });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      await res.json();
      const took = performance.now() - t;
      if (round >= WARM_UP_ROUNDS) ms[name].push(took);
      else warmUpSlowestMs = Math.max(warmUpSlowestMs, took);
    }
  }
  return { ms, warmUpSlowestMs };
}

if (process.argv[1] === SELF) {
  let input = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) input += chunk;
  process.stdout.write(JSON.stringify(await run(JSON.parse(input))));
}
