// Ingest measurements: uploads through the real services until every item is READY (the baseline they
// are compared with: ingest-baseline.mjs).
import { readdir, readFile } from 'node:fs/promises';
import { Agent, get as httpGet } from 'node:http';
import { join } from 'node:path';
import { require, root } from '../bench-common.mjs';
import { seconds } from './photos.mjs';
import { cpuSeconds } from './cpu.mjs';
import { uploadAll } from './upload.mjs';

const { startProcess, serviceEntry } = require(join(root, 'services/kit/dist/testing/index.js'));

/** A user of the stack (created by the administrator, logged in): { headers, token }. */
export async function newUser(stack, username, features) {
  const base = stack.gatewayUrl;
  const admin = `Basic ${Buffer.from(`${stack.adminUsername}:${stack.adminPassword}`).toString('base64')}`;
  const password = 'Bench-Marking-Photos-42';
  const user = await fetch(`${base}/v1/users`, {
    method: 'POST',
    headers: { Authorization: admin, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Bench', username, password, ...(features ? { features } : {}) }),
  });
  if (user.status !== 201) throw new Error(`creating the user: ${user.status} ${await user.text()}`);
  const res = await fetch(`${base}/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${await res.text()}`);
  const { accessToken } = await res.json();
  return { token: accessToken, headers: { Authorization: `Bearer ${accessToken}` } };
}

/** Worker processes on the stack, ready: [ServiceProcess]. */
export async function startWorkers(stack, count, tag) {
  const workers = Array.from({ length: count }, (_, w) =>
    startProcess(`worker-${tag}-${w + 1}`, serviceEntry('worker'), stack.envFor('worker')),
  );
  await Promise.all(workers.map((p) => p.waitForOutput('service ready', 30_000)));
  return workers;
}

/**
 * Uploads every file as `user` (`uploadParallel` at a time) while `workers` process them, until
 * every item is READY: { seconds, workerMs (each item's processing time), workerCpuSeconds (the worker
 * processes' own, their ExifTool processes apart), rss }.
 */
export async function ingest(stack, user, files, workers, uploadParallel) {
  const base = stack.gatewayUrl;
  // Is the last item READY, has one FAILED? One small page each, on a kept connection: the wait must
  // not load the services it waits for (two full lists every 100 ms cost the services and this
  // process ~1.3 s of CPU in a 12 s run, which the baseline never had to share the cores with).
  const page = (status, n) => getJson(`${base}/v1/mediaItems?status=${status}&limit=1&page=${n}`, user.headers);
  const allReady = async () => (await page('READY', files.length)).length === 1;
  const assertNoneFailed = async () => {
    const [failed] = await page('FAILED', 1);
    if (failed) throw new Error(`an item failed: ${failed.failureReason}`);
  };
  const processedBefore = workers.map((w) => w.output().length);
  // Each worker with everything it started (its ExifTool processes, ffmpeg while one runs).
  const rss = sampleRss(async () => (await Promise.all(workers.map((w) => processTree(w.child.pid)))).flat());
  const cpuBefore = workers.map((w) => cpuSeconds(w.child.pid));
  const started = performance.now();
  await uploadAll(`${base}/v1/mediaItems`, user.headers, files, uploadParallel);
  const deadline = Date.now() + 30 * 60_000;
  for (let polls = 0; !(await allReady()); polls++) {
    // A failed item never becomes READY: looked for every second.
    if (polls % 10 === 0) await assertNoneFailed();
    if (Date.now() > deadline) throw new Error('timed out waiting for every item to be READY');
    await new Promise((r) => setTimeout(r, 100));
  }
  const took = seconds(started);
  const workerCpuSeconds = workers.reduce((n, w, i) => n + cpuSeconds(w.child.pid) - cpuBefore[i], 0);
  const memory = rss.stop();
  const workerMs = workers.flatMap((w, i) =>
    [
      ...w
        .output()
        .slice(processedBefore[i])
        .matchAll(/"ms":(\d+),"msg":"media item processed"/g),
    ].map((m) => Number(m[1])),
  );
  return { seconds: took, workerMs, workerCpuSeconds, rss: memory };
}

const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

/** GET `url` (JSON, 200 expected) over a kept connection. */
function getJson(url, headers) {
  return new Promise((resolve, reject) => {
    const req = httpGet(url, { headers, agent: keepAlive }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) reject(new Error(`GET ${url}: ${res.statusCode} ${body}`));
        else resolve(JSON.parse(body));
      });
    });
    req.on('error', reject);
  });
}

/**
 * `pid` and every process below it, from each one's /proc/N/task/T/children: a few small reads. (Reading
 * /proc/N/stat of every process on the machine, five times a second, cost this process ~0.5 s of CPU
 * per ingest run, and its garbage more: work the baseline's side never had to share the cores with.)
 */
export async function processTree(pid) {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    const tasks = await readdir(`/proc/${tree[i]}/task`).catch(() => []);
    for (const task of tasks) {
      const children = await readFile(`/proc/${tree[i]}/task/${task}/children`, 'utf8').catch(() => '');
      for (const child of children.split(' ')) if (child.trim()) tree.push(Number(child));
    }
  }
  return tree;
}

async function rssOf(pid) {
  const [status, cmdline] = await Promise.all([
    readFile(`/proc/${pid}/status`, 'utf8'),
    readFile(`/proc/${pid}/cmdline`, 'utf8'),
  ]).catch(() => ['', '']);
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  return { mib: m ? Number(m[1]) / 1024 : 0, exiftool: cmdline.includes('exiftool') };
}

/**
 * Samples the summed resident memory of the processes `pids()` names every 200 ms until stop():
 * { peakMiB, exiftoolMiB (the ExifTool processes' part of that peak) }.
 */
function sampleRss(pids) {
  let peak = { peakMiB: 0, exiftoolMiB: 0 };
  let busy = false;
  const sample = async () => {
    if (busy) return;
    busy = true;
    try {
      const each = await Promise.all((await pids()).map(rssOf));
      const total = each.reduce((n, r) => n + r.mib, 0);
      if (total > peak.peakMiB)
        peak = { peakMiB: total, exiftoolMiB: each.filter((r) => r.exiftool).reduce((n, r) => n + r.mib, 0) };
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void sample().catch(() => undefined), 200);
  return { stop: () => (clearInterval(timer), peak) };
}
