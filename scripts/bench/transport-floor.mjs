// The floor under the API's list times: the same shape of call with no work in it. A client asks an
// express server over HTTP; the server asks a responder over NATS (request/reply, as the gateway asks
// media); the responder answers a page's bytes it already holds; the server sends them on as they
// came; the client reads and parses them (the API timer, as for the API). No store, no decoding,
// no presenting, no signing: what is left is the two processes' hops and the machine's scheduling,
// which every list call pays too. Printed beside the list ratio so that a bound below it shows.
//
// As a module: `measureTransportFloor({ page, rounds })` → `{ ms, warmUpSlowestMs }`: the calls' milliseconds.
// Run with `edge <nats url>` or `responder <nats url> <page file>`, it is one of the two processes.
import { fork } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { require, root } from '../bench-common.mjs';
import { timeApi } from './api-timer.mjs';

const SELF = fileURLToPath(import.meta.url);
const SUBJECT = 'bench.floor.page';

/**
 * @param {{ page: Buffer, rounds: number }} job the bytes a list call answers, and how many calls to time
 * @returns {Promise<{ ms: number[], warmUpSlowestMs: number }>}
 */
export async function measureTransportFloor({ page, rounds }) {
  const { startNatsServer } = require(join(root, 'services/kit/dist/testing/index.js'));
  const dir = await mkdtemp(join(tmpdir(), 'trove-floor-'));
  const pageFile = join(dir, 'page.json');
  await writeFile(pageFile, page);
  const nats = await startNatsServer();
  const children = [];
  const start = (...args) =>
    new Promise((resolve, reject) => {
      const child = fork(SELF, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      children.push(child);
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the transport floor's ${args[0]} exited with ${code}`)));
      child.once('message', resolve);
    });
  try {
    await start('responder', nats.url, pageFile);
    const port = await start('edge', nats.url);
    const timed = await timeApi({
      base: `http://127.0.0.1:${port}`,
      authorization: 'Bearer none',
      paths: { floor: '/page' },
      rounds,
    });
    return { ms: timed.ms.floor, warmUpSlowestMs: timed.warmUpSlowestMs };
  } finally {
    for (const child of children) {
      child.removeAllListeners('exit');
      child.kill();
    }
    await nats.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function responder(natsUrl, pageFile) {
  const page = await readFile(pageFile);
  const { connect } = require('nats');
  const nc = await connect({ servers: natsUrl });
  nc.subscribe(SUBJECT, { queue: 'floor', callback: (_err, msg) => msg.respond(page) });
  await nc.flush();
  process.send('ready');
}

async function edge(natsUrl) {
  const { connect } = require('nats');
  const express = require('express');
  const nc = await connect({ servers: natsUrl });
  const app = express();
  app.get('/page', async (_req, res, next) => {
    try {
      const reply = await nc.request(SUBJECT, new Uint8Array(0), { timeout: 10_000 });
      res.type('json').end(Buffer.from(reply.data.buffer, reply.data.byteOffset, reply.data.byteLength));
    } catch (err) {
      next(err);
    }
  });
  const server = app.listen(0, '127.0.0.1', () => process.send(server.address().port));
}

if (process.argv[1] === SELF) {
  const [role, natsUrl, pageFile] = process.argv.slice(2);
  // Gone with the bench: a parent that died leaves no process behind.
  process.on('disconnect', () => process.exit(0));
  if (role === 'responder') await responder(natsUrl, pageFile);
  else if (role === 'edge') await edge(natsUrl);
  else throw new Error(`unknown role ${role}`);
}
