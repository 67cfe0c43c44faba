// Upload measurements: the client every upload figure uses, the parts of an upload measured one by
// one in this process, and the gateway's resident memory during one very large upload.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { require, root } from '../bench-common.mjs';
import { MB, MiB, median, pool, seconds } from './photos.mjs';

// The gateway's own busboy (1.x; the repository root holds an older one for another package).
const busboy = createRequire(join(root, 'services/gateway/package.json'))('busboy');
const { openFsBlobStore } = require(join(root, 'services/kit/dist/index.js'));

const UPLOAD_TIMEOUT_MS = 60_000;

/** Seconds to POST every file as multipart `file` to `url`, `parallel` at a time; every answer must be 201. */
export async function uploadAll(url, headers, files, parallel) {
  const started = performance.now();
  await pool(files, parallel, async (f) => {
    const form = new FormData();
    form.append('file', new Blob([f.data]), f.name);
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body: form,
      signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
    }).catch((err) => {
      throw new Error(`upload of ${f.name} to ${url}: ${err.message}`, { cause: err });
    });
    if (res.status !== 201) throw new Error(`upload of ${f.name} to ${url}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  });
  return seconds(started);
}

/**
 * The parts of an upload, each alone, one file after another in this process (ms per file):
 * what the gateway's time is made of, apart from the calls to other services (see its log).
 */
export async function measureUploadParts(files, dir) {
  const perFile = (ms) => ms / files.length;
  const bytes = files.reduce((n, f) => n + f.data.length, 0);
  const parts = {};

  let t = performance.now();
  for (const f of files) createHash('sha256').update(f.data).digest('hex');
  parts.sha256Ms = perFile(performance.now() - t);
  parts.sha256MBps = bytes / MB / seconds(t);

  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  t = performance.now();
  for (const f of files) await parseMultipart(f, boundary);
  parts.busboyMs = perFile(performance.now() - t);

  const plainDir = join(dir, 'plain');
  await mkdir(plainDir);
  t = performance.now();
  for (const f of files) {
    const handle = await open(join(plainDir, f.name), 'wx');
    await handle.writeFile(f.data);
    await handle.sync();
    await handle.close();
  }
  parts.writeFsyncMs = perFile(performance.now() - t);

  t = performance.now();
  for (const f of files) {
    const handle = await open(join(plainDir, `${f.name}.small`), 'wx');
    await handle.writeFile('{"contentType":"image/jpeg"}');
    await handle.sync();
    await handle.close();
  }
  parts.smallFileFsyncMs = perFile(performance.now() - t);

  // The blob store as the gateway uses it: a new key per item (media/<user>/<item>/original).
  const store = await openFsBlobStore({ root: join(dir, 'blobs') });
  t = performance.now();
  for (const f of files)
    await store.put(`media/bench/${randomUUID()}/original`, Readable.from([f.data]), { contentType: 'image/jpeg' });
  parts.blobStorePutMs = perFile(performance.now() - t);
  await rm(join(dir, 'blobs'), { recursive: true, force: true });
  await rm(plainDir, { recursive: true, force: true });
  return parts;
}

async function parseMultipart(f, boundary) {
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    f.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const parser = busboy({ headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
  const done = new Promise((resolve, reject) => {
    parser.on('file', (_n, stream) => stream.resume());
    parser.on('close', resolve);
    parser.on('error', reject);
  });
  // As the socket delivers it: 64 KiB at a time.
  for (let i = 0; i < body.length; i += 64 * 1024) parser.write(body.subarray(i, i + 64 * 1024));
  parser.end();
  await done;
}

/** The gateway's access log lines of uploads (those naming a `mediaItemId`): median ms of each phase. */
export function gatewayUploadPhases(output) {
  const lines = output
    .split('\n')
    .filter((l) => l.includes('"msg":"request"') && l.includes('"mediaItemId"'))
    .map((l) => JSON.parse(l));
  if (!lines.length) return undefined;
  const phases = {};
  for (const key of Object.keys(lines[0]).filter((k) => k.endsWith('Ms')))
    phases[key] = median(lines.map((l) => l[key])).toFixed(1);
  return { count: lines.length, ...phases };
}

/** The metrics URL a service printed at start (`TROVE_METRICS_PORT` set), from its output. */
export function metricsUrl(output) {
  return /"metrics":"(http:[^"]+)"/.exec(output)?.[1];
}

/** Garbage collections a service has run so far, by kind (major, minor, incremental), from its metrics. */
export async function gcCounts(url) {
  const text = await (await fetch(url)).text();
  const counts = {};
  for (const m of text.matchAll(/^trove_nodejs_gc_duration_seconds_count\{[^}]*kind="(\w+)"[^}]*\} (\d+)/gm))
    counts[m[1]] = Number(m[2]);
  return counts;
}

async function rssBytes(pid) {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
  return Number(m[1]) * 1024;
}

/**
 * One upload of `size` bytes (a video-like body, made on the fly) to the gateway, with its
 * resident memory sampled every 100 ms: { seconds, growthMiB, status }.
 */
export async function bigUpload(gatewayUrl, token, pid, size) {
  const baseline = await rssBytes(pid);
  let peak = baseline;
  const sampler = setInterval(
    () =>
      void rssBytes(pid).then(
        (rss) => (peak = Math.max(peak, rss)),
        () => undefined,
      ),
    100,
  );
  const started = performance.now();
  let res;
  try {
    res = await streamUpload(`${gatewayUrl}/v1/mediaItems`, token, size);
  } finally {
    clearInterval(sampler);
  }
  return { seconds: seconds(started), growthMiB: (peak - baseline) / MiB, status: res.status, id: res.id };
}

/** An MP4-like body: an ftyp box, then pseudo-random bytes (one 1 MiB block repeated, slightly varied). */
function videoLike(size) {
  const block = randomBytes(MiB);
  const ftyp = Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex');
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) return this.push(null);
      const chunk = Buffer.from(block.subarray(0, Math.min(MiB, size - sent)));
      if (sent === 0) ftyp.copy(chunk);
      chunk.writeUInt32BE(sent / MiB, chunk.length >= 64 ? 32 : 0);
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

function streamUpload(url, token, size) {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': String(head.length + size + tail.length),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode, id: res.statusCode === 201 ? JSON.parse(text).id : undefined, text });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.write(head);
    const body = videoLike(size);
    body.on('end', () => req.end(tail));
    body.pipe(req, { end: false });
  });
}
