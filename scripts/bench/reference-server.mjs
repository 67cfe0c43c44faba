// The minimal upload server the gateway is compared with: node:http + busboy + sha256 + one file
// write with fsync, answering 201 once the bytes are durable. The least any server must do for
// the same multipart request; no authentication, no metadata, no registration.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { root } from '../bench-common.mjs';

// The gateway's own busboy (1.x; the repository root holds an older one for another package).
const busboy = createRequire(join(root, 'services/gateway/package.json'))('busboy');

/**
 * Starts the server in a process of its own (as the gateway runs in its own, away from the
 * benchmark's client) on a free port, writing into `dir`: { url, pid, close() }.
 */
export async function startReferenceServer(dir) {
  const child = fork(fileURLToPath(import.meta.url), [dir], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [url] = await once(child, 'message');
  // Its own timing of each upload, as the gateway logs its own: { receiveMs, commitMs }.
  const timings = [];
  child.on('message', (m) => timings.push(m));
  return {
    url,
    pid: child.pid,
    timings,
    close: async () => {
      child.kill();
      await once(child, 'exit');
    },
  };
}

async function serve(dir) {
  const server = createServer((req, res) => {
    const started = performance.now();
    let bodyEndedAt = NaN;
    req.once('end', () => (bodyEndedAt = performance.now()));
    const parser = busboy({ headers: req.headers });
    let stored;
    parser.on('file', (_name, stream) => {
      const hash = createHash('sha256');
      const hashing = new Transform({ transform: (chunk, _enc, cb) => (hash.update(chunk), cb(null, chunk)) });
      // flush: fsync before close, as the blob store does.
      stored = pipeline(stream, hashing, createWriteStream(join(dir, randomUUID()), { flags: 'wx', flush: true })).then(
        () => hash.digest('hex'),
      );
    });
    parser.on('close', () => {
      if (!stored) return res.writeHead(400).end();
      stored.then(
        (sha256) => {
          const storedAt = performance.now();
          process.send({ receiveMs: bodyEndedAt - started, commitMs: storedAt - bodyEndedAt });
          res.writeHead(201, { 'Content-Type': 'application/json' }).end(JSON.stringify({ id: randomUUID(), sha256 }));
        },
        () => res.writeHead(500).end(),
      );
    });
    req.pipe(parser);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.send(`http://127.0.0.1:${server.address().port}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await serve(process.argv[2]);
