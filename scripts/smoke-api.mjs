#!/usr/bin/env node
// API smoke test against a running Trove (a cluster install in CI, or `make up`): the gateway is ready, the
// administrator creates a user, the user logs in, uploads a photo, the workers process it to READY and its
// thumbnail downloads. Usage:
//   TROVE_API_URL=http://127.0.0.1:5001 TROVE_ADMIN_PASSWORD=… node scripts/smoke-api.mjs
// Exits 0 and prints "smoke: ok" when all of it works; otherwise prints what failed and exits 1.
import { deflateSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';

const api = (process.env.TROVE_API_URL || 'http://127.0.0.1:5001').replace(/\/$/, '');
const adminUser = process.env.TROVE_ADMIN_USERNAME || 'admin';
const adminPassword = process.env.TROVE_ADMIN_PASSWORD;
const timeoutMs = Number(process.env.SMOKE_TIMEOUT_SECONDS || 300) * 1000;
if (!adminPassword) fail('TROVE_ADMIN_PASSWORD is required');

function fail(message) {
  process.stderr.write(`smoke: FAILED — ${message}\n`);
  process.exit(1);
}

/** Polls `check` until it returns a value (not undefined) or the deadline passes. */
async function until(what, check) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      last = err.message;
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
  fail(`${what} within ${timeoutMs / 1000} s${last ? ` (last error: ${last})` : ''}`);
}

async function call(method, path, { headers = {}, body } = {}) {
  const res = await fetch(`${api}${path}`, { method, headers, body });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

/** A real 32×32 PNG (a gradient), made here so the smoke test needs no file. */
function png() {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const size = 32;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows = [];
  for (let y = 0; y < size; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < size; x++) rows.push(x * 8, y * 8, 128);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

await until('the gateway is ready (GET /health/ready)', async () =>
  (await call('GET', '/health/ready')).status === 200 ? true : undefined,
);
console.log(`smoke: ${api} is ready`);

const username = `smoke-${randomUUID().slice(0, 8)}`;
const password = `smoke ${randomUUID()}`;
const basic = `Basic ${Buffer.from(`${adminUser}:${adminPassword}`).toString('base64')}`;
const created = await call('POST', '/v1/users', {
  headers: { authorization: basic, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'Smoke Test', username, password }),
});
if (created.status !== 201) fail(`POST /v1/users answered ${created.status}: ${created.text}`);

const login = await call('POST', '/v1/auth/login', {
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username, password }),
});
if (login.status !== 200 || !login.json?.accessToken)
  fail(`POST /v1/auth/login answered ${login.status}: ${login.text}`);
const bearer = { authorization: `Bearer ${login.json.accessToken}` };
console.log(`smoke: user ${username} logged in`);

const form = new FormData();
form.append('file', new Blob([png()], { type: 'image/png' }), 'smoke.png');
const upload = await call('POST', '/v1/mediaItems', { headers: bearer, body: form });
if (upload.status !== 201 && upload.status !== 200)
  fail(`POST /v1/mediaItems answered ${upload.status}: ${upload.text}`);
const id = upload.json?.id;
if (!id) fail(`the upload answer has no id: ${upload.text}`);
console.log(`smoke: uploaded item ${id}`);

const item = await until(`item ${id} is READY`, async () => {
  const got = await call('GET', `/v1/mediaItems/${id}`, { headers: bearer });
  if (got.json?.status === 'FAILED') fail(`item ${id} FAILED: ${got.json.failureReason ?? got.text}`);
  return got.json?.status === 'READY' ? got.json : undefined;
});
console.log(`smoke: item ${id} is READY`);

const thumb = await fetch(item.thumbnailUrl.startsWith('http') ? item.thumbnailUrl : `${api}${item.thumbnailUrl}`, {
  headers: bearer,
});
const bytes = Buffer.from(await thumb.arrayBuffer());
if (thumb.status !== 200 || bytes.length === 0)
  fail(`the thumbnail answered ${thumb.status} with ${bytes.length} bytes`);
console.log(`smoke: thumbnail ${bytes.length} bytes (${thumb.headers.get('content-type')})`);
console.log('smoke: ok');
