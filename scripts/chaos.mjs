#!/usr/bin/env node
// `make chaos`: uploads photos to a whole Trove (scripts/up.mjs: nats-server + every service,
// supervised) while, in turn, each service process and the worker are SIGKILLed and nats-server is
// killed and restarted. Ends with one line:
//   N uploaded, N ready, N lost, N duplicated
// and exits non-zero unless every upload is READY, none lost and none duplicated.
//
// An upload is the client's word: it keeps retrying (as a phone app does) until the API answers
// 201 with an id or 409 naming the item that already holds those bytes. "lost": an upload the API
// accepted whose item is missing or not READY at the end; "duplicated": one photo held by more
// than one item.
//
// Options (env): CHAOS_UPLOADS (default 120), CHAOS_CONCURRENCY (4), CHAOS_SETTLE_SECONDS (300).
import { execFileSync } from 'node:child_process';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const sharp = require(require.resolve('sharp', { paths: [join(import.meta.dirname, '..', 'services', 'worker')] }));

const UPLOADS = Number(process.env.CHAOS_UPLOADS || 120);
const CONCURRENCY = Number(process.env.CHAOS_CONCURRENCY || 4);
const SETTLE_MS = Number(process.env.CHAOS_SETTLE_SECONDS || 300) * 1000;
/** Killed in this order, one every UPLOADS/(victims+1) accepted uploads; `nats` is restarted by the supervisor. */
const VICTIMS = ['gateway', 'auth', 'media', 'library', 'explore', 'jobs', 'worker', 'nats'];
const PASSWORD = 'storm over the harbour';

const say = (line) => process.stdout.write(`${line}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Processes below `pid` (the up.mjs supervisor), with their command lines. */
function descendants(pid) {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/))
    .filter(Boolean)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), cmd: m[3] }));
  const out = [];
  const walk = (p) => {
    for (const r of rows.filter((x) => x.ppid === p)) {
      out.push(r);
      walk(r.pid);
    }
  };
  walk(pid);
  return out;
}

function processOf(upPid, name) {
  const procs = descendants(upPid);
  if (name === 'nats') return procs.find((p) => /nats-server/.test(p.cmd));
  return procs.find((p) => p.cmd.includes(join('services', name, 'dist', 'main.js')));
}

/** A distinct small JPEG: random noise, so every photo has its own bytes. */
async function photo(n) {
  const width = 64;
  const height = 48;
  const raw = randomBytes(width * height * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer()
    .then((data) => ({ name: `chaos-${n}.jpg`, data }));
}

async function main() {
  const data = mkdtempSync(join(tmpdir(), 'trove-chaos-'));
  const [gatewayPort, natsPort, webPort, docsPort, metricsPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  const api = `http://127.0.0.1:${gatewayPort}`;
  const up = spawn(process.execPath, [join(import.meta.dirname, 'up.mjs')], {
    env: {
      ...process.env,
      TROVE_DATA_DIR: data,
      TROVE_GATEWAY_PORT: String(gatewayPort),
      TROVE_NATS_PORT: String(natsPort),
      TROVE_NATS_URL: '',
      TROVE_WEB_PORT: String(webPort),
      TROVE_DOCS_PORT: String(docsPort),
      TROVE_METRICS_BASE_PORT: String(metricsPort),
      TROVE_ADMIN_PASSWORD: '',
      // Quick retries, so an item whose worker died is picked up again within seconds.
      TROVE_WORKER_ACK_WAIT_SECONDS: '5',
      TROVE_WORKER_BACKOFF_MS: '1000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let upOutput = '';
  up.stdout.on('data', (d) => (upOutput += d));
  up.stderr.on('data', (d) => (upOutput += d));
  const stopUp = async () => {
    if (up.exitCode !== null) return;
    up.kill('SIGINT');
    await new Promise((r) => up.once('exit', r));
  };

  try {
    const deadline = Date.now() + 120_000;
    while (!upOutput.includes('Trove is up')) {
      if (up.exitCode !== null || Date.now() > deadline)
        throw new Error(`make up did not start:\n${upOutput.slice(-3000)}`);
      await sleep(200);
    }
    say(`==> stack up (gateway ${api}); ${UPLOADS} uploads, ${CONCURRENCY} at a time; victims: ${VICTIMS.join(', ')}`);

    // Retries an API call through outages (connection refused, 502/503) until it answers.
    const call = async (what, fn, ok) => {
      const until = Date.now() + 120_000;
      for (;;) {
        try {
          const res = await fn();
          if (ok(res.status)) return res;
          if (![500, 502, 503, 504].includes(res.status)) throw new Error(`${what}: ${res.status} ${await res.text()}`);
        } catch (err) {
          if (/: \d{3} /.test(String(err.message))) throw err;
        }
        if (Date.now() > until) throw new Error(`${what}: no answer for 2 minutes`);
        await sleep(250);
      }
    };

    const adminPassword = readFileSync(join(data, 'secrets', 'admin-password'), 'utf8').trim();
    const json = { 'Content-Type': 'application/json' };
    await call(
      'create user',
      () =>
        fetch(`${api}/v1/users`, {
          method: 'POST',
          headers: { ...json, Authorization: `Basic ${Buffer.from(`admin:${adminPassword}`).toString('base64')}` },
          body: JSON.stringify({ name: 'Chaos', username: 'chaos', password: PASSWORD }),
        }),
      (s) => s === 201,
    );
    const login = await call(
      'login',
      () =>
        fetch(`${api}/v1/auth/login`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ username: 'chaos', password: PASSWORD }),
        }),
      (s) => s === 200,
    );
    let { accessToken, refreshToken } = await login.json();
    const bearer = () => ({ Authorization: `Bearer ${accessToken}` });
    // Access tokens last 15 minutes; a long run refreshes like a client would.
    const refresher = setInterval(async () => {
      const r = await fetch(`${api}/v1/auth/refresh`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ refreshToken }),
      }).catch(() => undefined);
      if (r?.status === 200) ({ accessToken, refreshToken } = await r.json());
    }, 600_000);

    const photos = await Promise.all(Array.from({ length: UPLOADS }, (_, n) => photo(n)));
    const accepted = new Map(); // photo name -> item id
    let next = 0;
    let killed = 0;
    const killEvery = Math.max(1, Math.floor(UPLOADS / (VICTIMS.length + 1)));

    const killNext = () => {
      const victim = VICTIMS[killed++];
      const proc = processOf(up.pid, victim);
      if (!proc) throw new Error(`no ${victim} process to kill`);
      process.kill(proc.pid, 'SIGKILL');
      say(`    SIGKILL ${victim} (pid ${proc.pid}) after ${accepted.size} accepted uploads`);
    };

    const uploader = async () => {
      while (next < photos.length) {
        const p = photos[next++];
        const res = await call(
          `upload ${p.name}`,
          () => {
            const form = new FormData();
            form.append('file', new Blob([p.data], { type: 'image/jpeg' }), p.name);
            return fetch(`${api}/v1/mediaItems`, { method: 'POST', headers: bearer(), body: form });
          },
          (s) => s === 201 || s === 409,
        );
        accepted.set(p.name, (await res.json()).id);
        if (killed < VICTIMS.length && accepted.size >= killEvery * (killed + 1)) killNext();
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, uploader));
    while (killed < VICTIMS.length) killNext();
    say(`==> ${accepted.size} uploads accepted; waiting for processing (up to ${SETTLE_MS / 1000} s)`);

    // Every item of the user, through the API (pages of 100).
    const listAll = async () => {
      const items = [];
      for (let page = 1; ; page++) {
        const res = await call(
          'list',
          () => fetch(`${api}/v1/mediaItems?page=${page}&limit=100`, { headers: bearer() }),
          (s) => s === 200,
        );
        const batch = await res.json();
        items.push(...batch);
        if (batch.length < 100) return items;
      }
    };
    let items = [];
    const settleBy = Date.now() + SETTLE_MS;
    for (;;) {
      items = await listAll();
      const ready = items.filter((i) => i.status === 'READY').length;
      if (ready >= accepted.size || Date.now() > settleBy) break;
      await sleep(1000);
    }
    clearInterval(refresher);

    const byId = new Map(items.map((i) => [i.id, i]));
    const ready = [...accepted.values()].filter((id) => byId.get(id)?.status === 'READY').length;
    const lost = accepted.size - ready;
    const perName = new Map();
    for (const i of items) perName.set(i.filename, (perName.get(i.filename) ?? 0) + 1);
    const duplicated = [...perName.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
    const notReady = [...accepted.entries()].filter(([, id]) => byId.get(id)?.status !== 'READY');
    for (const [name, id] of notReady.slice(0, 10))
      say(`    not ready: ${name} ${id} ${byId.get(id)?.status ?? 'missing'} ${byId.get(id)?.failureReason ?? ''}`);
    const restarts = [...upOutput.matchAll(/(\w+) +exited unexpectedly/g)].map((m) => m[1]);
    say(`==> supervisor restarts: ${restarts.join(', ') || 'none'}`);
    say(`${accepted.size} uploaded, ${ready} ready, ${lost} lost, ${duplicated} duplicated`);
    return accepted.size === UPLOADS && lost === 0 && duplicated === 0 && ready === UPLOADS ? 0 : 1;
  } finally {
    await stopUp();
    rmSync(data, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    say(`!! ${err.stack ?? err}`);
    say(`0 uploaded, 0 ready, ${UPLOADS} lost, 0 duplicated`);
    process.exit(1);
  },
);
