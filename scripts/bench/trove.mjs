// `trove upload` (the built CLI, cli/bin/trove.js, as its own process) against the bench's own upload client on the
// same files, same concurrency, same gateway: the CLI also walks, hashes and asks `exist` first, and starts a process.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { root } from '../bench-common.mjs';
import { newUser } from './ingest.mjs';
import { median } from './photos.mjs';
import { uploadAll } from './upload.mjs';

/** Starts commands from bench/launcher.mjs (see there why not from here); `run` answers its seconds and output. */
async function startLauncher() {
  const child = fork(new URL('./launcher.mjs', import.meta.url), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await once(child, 'spawn');
  let next = 0;
  const waiting = new Map();
  child.on('message', (m) => waiting.get(m.id)?.(m));
  return {
    run: (file, args, env) =>
      new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, (m) => {
          waiting.delete(id);
          if (m.error) reject(new Error(`${file} ${args.join(' ')}: ${m.error}\n${m.stderr}`));
          else resolve(m);
        });
        child.send({ id, file, args, env });
      }),
    close: () => child.disconnect(),
  };
}

/**
 * `count` different files made of the photos: the photos themselves, then copies each with a few bytes of its own
 * after the JPEG's end (decoders stop at its end marker; the content, hence its SHA-256, differs, so nothing is
 * skipped). Both sides send exactly these files. Forty photos took the client ~0.5 s, and a process start alone
 * (~0.15–0.3 s on the shared machine) was then half the gap: a user sends hundreds or thousands of files per run,
 * which a one-off start is a small part of.
 */
function filesFor(photos, count) {
  return Array.from({ length: count }, (_, i) => {
    const photo = photos[i % photos.length];
    if (i < photos.length) return photo;
    return {
      name: `COPY_${String(i).padStart(5, '0')}.jpg`,
      data: Buffer.concat([photo.data, Buffer.from(`trove-bench-copy-${i}`)]),
    };
  });
}

/** The median over `rounds` of (bench client's seconds / trove's seconds), each round a new user for each side. */
export async function troveVsClient(stack, photos, dir, parallel, rounds, count = photos.length) {
  const files = filesFor(photos, count);
  const folder = join(dir, 'trove-upload');
  await mkdir(folder);
  for (const f of files) await writeFile(join(folder, f.name), f.data);
  const ratios = [];
  const times = { client: [], trove: [] };
  // Forked before the warm-up, whose uploads pay the one fork's copy-on-write faults (see bench/launcher.mjs).
  const launcher = await startLauncher();
  try {
    // The client warmed up first, a round not counted (fetch's first call loads undici, its connections open): with
    // `--only trove` nothing else has run in this process; `trove upload` starts cold every round, as a user's run does.
    const warm = await newUser(stack, 'trove-client-warmup');
    await uploadAll(`${stack.gatewayUrl}/v1/mediaItems`, warm.headers, files, parallel);
    for (let r = 0; r < rounds; r++) {
      const client = await newUser(stack, `trove-client-${r}`);
      const cli = await newUser(stack, `trove-cli-${r}`);
      const made = await fetch(`${stack.gatewayUrl}/v1/apiKeys`, {
        method: 'POST',
        headers: { ...cli.headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'bench' }),
      });
      if (made.status !== 201) throw new Error(`making an API key: ${made.status} ${await made.text()}`);
      const { key } = await made.json();
      const sides = {
        client: () => uploadAll(`${stack.gatewayUrl}/v1/mediaItems`, client.headers, files, parallel),
        trove: async () => {
          const { stdout, seconds: took } = await launcher.run(
            process.execPath,
            [join(root, 'cli/bin/trove.js'), 'upload', folder, '--concurrency', String(parallel)],
            { ...process.env, TROVE_SERVER: stack.gatewayUrl, TROVE_API_KEY: key },
          );
          const last = stdout.trim().split('\n').at(-1);
          if (last !== `${files.length} uploaded, 0 skipped, 0 failed`) throw new Error(`trove upload ended: ${last}`);
          return took;
        },
      };
      const order = r % 2 ? ['trove', 'client'] : ['client', 'trove'];
      const took = {};
      for (const side of order) took[side] = await sides[side]();
      ratios.push(took.client / took.trove);
      times.client.push(took.client);
      times.trove.push(took.trove);
    }
  } finally {
    launcher.close();
  }
  return { ratio: median(ratios), ratios, ...times };
}
