/**
 * What keeps one client from holding or exhausting the gateway, end to end on the compiled
 * processes (gateway, auth, media, library) with short limits: request bodies and headers that
 * never come, idle keep-alive connections, slow and stalled uploads, failed administrator logins,
 * anonymous shared-album reads, GET /disk on S3 (a counting proxy in front of s3rver), and the
 * request metrics the gateway publishes.
 */
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  freePort,
  multipartBody,
  piecesOf,
  postInPieces,
  serviceEntry,
  startS3Server,
  startStack,
  waitFor,
} from '@trove/kit/testing';
import type { S3ServerHandle, Stack } from '@trove/kit/testing';
import { noisePng } from '@trove/kit/testing/media';
import { answer, createApi, newUser, randomTestAddress, status } from '../support/api';
import type { Api, Credentials } from '../support/api';
import { send } from '../support/raw';

/** The gateway's limits in this suite, short so that it stays quick. */
const LIMITS = {
  bodySeconds: 2,
  headersSeconds: 2,
  keepAliveSeconds: 1,
  uploadIdleSeconds: 2,
  sharingPerMinute: 5,
  sharingMissesPerMinute: 8,
} as const;
/** Room for a loaded machine on top of a bound (Node checks overdue headers once a second). */
const SLACK_MS = 2500;

interface RawExchange {
  /** Everything the server sent. */
  received: string;
  /** From the first byte sent to the close. */
  closedAfterMs: number;
  /** From the first byte received to the close. */
  closedAfterAnswerMs: number;
}

/** Sends `text` on a fresh TCP connection, then nothing; resolves once the server closes it. */
function rawExchange(baseUrl: string, text: string): Promise<RawExchange> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const sentAt = Date.now();
    let firstByteAt = 0;
    let received = '';
    socket.on('data', (d) => {
      firstByteAt ||= Date.now();
      received += d.toString('latin1');
    });
    socket.on('close', () =>
      resolve({
        received,
        closedAfterMs: Date.now() - sentAt,
        closedAfterAnswerMs: Date.now() - (firstByteAt || sentAt),
      }),
    );
    socket.on('error', reject);
    socket.write(text);
  });
}

/** An upload in pieces, `gapMs` apart; only the first `send` bytes of the body when given. */
const uploadInPieces = (
  baseUrl: string,
  token: string,
  file: Buffer,
  opts: { send?: number; pieces: number; gapMs: number },
) => {
  const { body, contentType } = multipartBody(file);
  const sent = body.subarray(0, opts.send ?? body.length);
  return postInPieces(`${baseUrl}/v1/mediaItems`, {
    pieces: piecesOf(sent, opts.pieces),
    gapMs: opts.gapMs,
    declaredLength: body.length,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': contentType },
  });
};

/** Files under a directory, recursively (none when it does not exist). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => e.name);
}

/** `trove_http_request_duration_seconds_count` of one label set in Prometheus text (0 when absent). */
function requestCount(metrics: string, labels: { method: string; route: string; status: string }): number {
  for (const line of metrics.split('\n')) {
    const m = /^trove_http_request_duration_seconds_count\{(.*)\} (\d+)$/.exec(line);
    if (!m) continue;
    const found = Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)].map(([, k, v]) => [k, v]));
    if (found.method === labels.method && found.route === labels.route && found.status === labels.status)
      return Number(m[2]);
  }
  return 0;
}

describe('gateway hardening (e2e)', () => {
  let stack: Stack;
  /** Anonymous. */
  let api: Api;
  let metricsPort: number;
  /** A real user's access token: uploads ask the auth service for their owner's features. */
  let token: string;

  beforeAll(async () => {
    metricsPort = await freePort();
    stack = await startStack({
      services: ['gateway', 'auth', 'media', 'library'],
      env: {
        TROVE_REQUEST_BODY_TIMEOUT_SECONDS: String(LIMITS.bodySeconds),
        TROVE_REQUEST_HEADERS_TIMEOUT_SECONDS: String(LIMITS.headersSeconds),
        TROVE_KEEP_ALIVE_TIMEOUT_SECONDS: String(LIMITS.keepAliveSeconds),
        TROVE_UPLOAD_IDLE_TIMEOUT_SECONDS: String(LIMITS.uploadIdleSeconds),
        TROVE_SHARING_RATE_LIMIT: String(LIMITS.sharingPerMinute),
        TROVE_SHARING_MISS_RATE_LIMIT: String(LIMITS.sharingMissesPerMinute),
      },
      serviceEnv: { gateway: { TROVE_METRICS_PORT: String(metricsPort) } },
      readyTimeoutMs: 60_000,
    });
    api = createApi(stack.gatewayUrl);
    token = (await newUser(stack)).token;
  }, 120_000);
  const as = (credentials: Credentials) => createApi(stack.gatewayUrl, credentials);
  const from = (address: string) => ({ headers: { 'X-Forwarded-For': address } });
  afterAll(async () => {
    await stack?.stop();
  });

  describe('slow clients', () => {
    it('headers and then no body on a JSON call: 408 and the connection closed within the body timeout', async () => {
      const res = await rawExchange(
        stack.gatewayUrl,
        'POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n{"user',
      );
      expect(res.received).toMatch(/^HTTP\/1\.1 408 /);
      expect(res.received).toContain(`{"message":"request body not received within ${LIMITS.bodySeconds} seconds"}`);
      expect(res.closedAfterMs).toBeGreaterThanOrEqual(LIMITS.bodySeconds * 1000 - 100);
      expect(res.closedAfterMs).toBeLessThan(LIMITS.bodySeconds * 1000 + SLACK_MS);
    });

    it('a call refused before its body was read (401) does not keep the connection waiting for that body', async () => {
      const res = await rawExchange(
        stack.gatewayUrl,
        'POST /v1/albums HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n',
      );
      expect(res.received).toMatch(/^HTTP\/1\.1 401 /);
      expect(res.closedAfterMs).toBeLessThan(LIMITS.bodySeconds * 1000 + SLACK_MS);
    });

    it('headers that never end: the connection is closed within the headers timeout', async () => {
      const res = await rawExchange(stack.gatewayUrl, 'GET /version HTTP/1.1\r\nHost: x\r\nX-Slow: ');
      expect(res.received).toMatch(/^HTTP\/1\.1 408 /);
      expect(res.received).toMatch(/\r\n\r\n\{"message":"the request headers did not arrive in time"\}$/);
      expect(res.closedAfterMs).toBeLessThan(LIMITS.headersSeconds * 1000 + SLACK_MS);
    });

    it('a request Node cannot read answers with a {"message"} too: a request line over its limit 431, bytes that are not HTTP 400', async () => {
      const long = await rawExchange(
        stack.gatewayUrl,
        `GET /v1/mediaItems?sig=${'%F0%9F%98%80'.repeat(2000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      );
      expect(long.received).toMatch(/^HTTP\/1\.1 431 /);
      expect(long.received).toContain('Content-Type: application/json');
      expect(JSON.parse(long.received.split('\r\n\r\n')[1]!)).toEqual({
        message: 'the request line and headers are over 16 KiB: send long lists in a body',
      });
      const garbage = await rawExchange(stack.gatewayUrl, 'HELLO\u0001 /\r\n\r\n');
      expect(garbage.received).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(garbage.received.split('\r\n\r\n')[1]!)).toEqual({
        message: 'not a well-formed HTTP/1.1 request',
      });
      // The gateway still answers.
      expect((await fetch(`${stack.gatewayUrl}/version`)).status).toBe(200);
    });

    it('an idle keep-alive connection is closed after the keep-alive timeout', async () => {
      const res = await rawExchange(
        stack.gatewayUrl,
        'GET /version HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n',
      );
      expect(res.received).toMatch(/^HTTP\/1\.1 200 [\s\S]*Keep-Alive: timeout=1/i);
      expect(res.closedAfterAnswerMs).toBeLessThan(LIMITS.keepAliveSeconds * 1000 + SLACK_MS);
    });
  });

  describe('uploads', () => {
    it('a slow upload succeeds for as long as bytes keep coming, far past the body timeout', async () => {
      const started = Date.now();
      // Ten pieces half a second apart: about 4.5 s in all, no gap near the idle timeout.
      const res = await uploadInPieces(stack.gatewayUrl, token, await noisePng(64, 64), { pieces: 10, gapMs: 500 });
      expect(res).toEqual({ status: 201, body: { id: expect.any(String) } });
      expect(Date.now() - started).toBeGreaterThan(LIMITS.bodySeconds * 1000);
      expect(
        await answer(
          as({ bearer: token }).GET('/v1/mediaItems/{id}', { params: { path: { id: String(res.body.id) } } }),
        ),
      ).toMatchObject({ status: 200, body: { filename: 'slow.png' } });
    });

    it('a stalled upload is cut (408) and leaves no item and no blob', async () => {
      const { id: stalledUser, token: stalledToken } = await newUser(stack);
      const png = await noisePng(64, 64);
      const started = Date.now();
      // The first 8000 bytes (past the sniffed head: the store is writing), then nothing.
      const res = await uploadInPieces(stack.gatewayUrl, stalledToken, png, { send: 8000, pieces: 1, gapMs: 0 });
      expect(res).toEqual({
        status: 408,
        body: { message: `upload stalled: no data for ${LIMITS.uploadIdleSeconds} seconds` },
      });
      expect(Date.now() - started).toBeLessThan(LIMITS.uploadIdleSeconds * 1000 + SLACK_MS);
      await stack.processes.gateway.waitForOutput('upload stalled; cut, nothing kept');
      await waitFor(async () => (await filesUnder(join(stack.dataDir, 'blobs', '.tmp'))).length === 0, {
        what: 'no partial blob left',
      });
      expect(await filesUnder(join(stack.dataDir, 'blobs', 'media', stalledUser))).toEqual([]);
      expect(await answer(as({ bearer: stalledToken }).GET('/v1/mediaItems'))).toMatchObject({ status: 200, body: [] });
    });
  });

  describe('administrator logins', () => {
    /** GET /v1/users as the administrator (or with a wrong password), from `address`. */
    const users = (password: 'right' | 'wrong', address: string) =>
      answer(
        as({
          basic: {
            username: stack.adminUsername,
            password: password === 'right' ? stack.adminPassword : `${stack.adminPassword}-wrong`,
          },
        }).GET('/v1/users', from(address)),
      );

    it('after 10 failures a minute from one address every attempt answers 429 with Retry-After, the right password too; other addresses are not affected', async () => {
      const address = randomTestAddress();
      for (let i = 0; i < 10; i++) expect((await users('wrong', address)).status).toBe(401);
      const refused = await users('wrong', address);
      expect(refused).toMatchObject({ status: 429, body: { message: 'too many failed attempts' } });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await users('right', address)).status).toBe(429);
      expect((await users('right', '192.0.2.77')).status).toBe(200);
    });

    it('successful logins are not counted', async () => {
      const address = '192.0.2.88';
      for (let i = 0; i < 15; i++) expect((await users('right', address)).status).toBe(200);
      for (let i = 0; i < 10; i++) expect((await users('wrong', address)).status).toBe(401);
      expect((await users('wrong', address)).status).toBe(429);
    });
  });

  describe('shared albums', () => {
    it(`lookups of unknown ids are limited per client address in a bucket of their own (${LIMITS.sharingMissesPerMinute} a minute here): then 429 with Retry-After`, async () => {
      const address = randomTestAddress();
      // The album, and its items: both anonymous reads of a shared link.
      const reads = [
        (from: { headers: Record<string, string> }) =>
          answer(api.GET('/v1/sharing/{id}', { params: { path: { id: randomUUID() } }, ...from })),
        (from: { headers: Record<string, string> }) =>
          answer(api.GET('/v1/sharing/{id}/mediaItems', { params: { path: { id: randomUUID() } }, ...from })),
      ];
      // More misses than the found bucket holds: they spend only the miss bucket.
      for (let i = 0; i < LIMITS.sharingMissesPerMinute; i++) {
        expect(await reads[i % 2]!(from(address))).toMatchObject({
          status: 404,
          body: { message: 'shared link not found' },
        });
      }
      for (const read of reads) {
        const refused = await read(from(address));
        expect(refused).toMatchObject({ status: 429, body: { message: 'too many requests' } });
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
      expect((await reads[0]!(from('192.0.2.99'))).status).toBe(404);
    });

    it(`lookups that find an album are limited per client address (${LIMITS.sharingPerMinute} a minute here), and misses do not spend them`, async () => {
      const owner = await newUser(stack);
      const album = (await owner.api.POST('/v1/albums', { body: { name: 'Limited', shared: true } })).data!;
      const address = randomTestAddress();
      for (let i = 0; i < LIMITS.sharingPerMinute - 1; i++) {
        expect(
          (await answer(api.GET('/v1/sharing/{id}', { params: { path: { id: randomUUID() } }, ...from(address) })))
            .status,
        ).toBe(404);
      }
      for (let i = 0; i < LIMITS.sharingPerMinute; i++) {
        expect(
          (await answer(api.GET('/v1/sharing/{id}', { params: { path: { id: album.id } }, ...from(address) }))).status,
        ).toBe(200);
      }
      const refused = await answer(
        api.GET('/v1/sharing/{id}/mediaItems', { params: { path: { id: album.id } }, ...from(address) }),
      );
      expect(refused).toMatchObject({ status: 429, body: { message: 'too many requests' } });
      expect(
        (await answer(api.GET('/v1/sharing/{id}', { params: { path: { id: album.id } }, ...from('192.0.2.98') })))
          .status,
      ).toBe(200);
    });

    it('page is bounded (at most 1000)', async () => {
      const page = (n: number) =>
        api.GET('/v1/sharing/{id}/mediaItems', { params: { path: { id: randomUUID() }, query: { page: n } } });
      expect(await answer(page(1001))).toMatchObject({
        status: 400,
        body: { message: expect.stringMatching(/page must be <= 1000/) },
      });
      expect(await status(page(1000))).toBe(404);
    });
  });

  it('records trove_http_request_duration_seconds by method, route template (or unmatched) and status', async () => {
    const metrics = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const series = [
      { method: 'GET', route: '/version', status: '200' },
      { method: 'GET', route: '/v1/sharing/{id}', status: '404' },
      { method: 'GET', route: '/v1/mediaItems/{id}', status: '401' },
      { method: 'GET', route: 'unmatched', status: '404' },
      { method: 'PATCH', route: 'unmatched', status: '405' },
    ];
    const before = await metrics();
    for (let i = 0; i < 3; i++) await api.GET('/version');
    await api.GET('/v1/sharing/{id}', { params: { path: { id: randomUUID() } } });
    await api.GET('/v1/mediaItems/{id}', { params: { path: { id: randomUUID() } } });
    await send(`${stack.gatewayUrl}/v1/nope`);
    await send(`${stack.gatewayUrl}/version`, { method: 'patch' });
    const after = await metrics();
    expect(series.map((s) => requestCount(after, s) - requestCount(before, s))).toEqual([3, 1, 1, 1, 1]);
    const versionBuckets = after
      .split('\n')
      .filter((l) => l.startsWith('trove_http_request_duration_seconds_bucket{') && l.includes('route="/version"'));
    expect(versionBuckets.length).toBeGreaterThan(1);
    expect(versionBuckets.every((l) => l.includes('service="gateway"'))).toBe(true);
  });
});

describe('GET /disk on S3 (e2e)', () => {
  let stack: Stack;
  let s3: S3ServerHandle;
  let proxy: Server;
  let gatewayUrl: string;
  let listings = 0;

  beforeAll(async () => {
    s3 = await startS3Server();
    // In front of s3rver, counting the bucket listings (ListObjectsV2) the gateway makes.
    proxy = createServer((req, res) => {
      if (req.method === 'GET' && /[?&]list-type=2/.test(req.url ?? '')) listings++;
      const upstream = request(
        `${s3.endpoint}${req.url ?? '/'}`,
        { method: req.method, headers: req.headers },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    stack = await startStack({ services: [] });
    const port = await freePort();
    gatewayUrl = `http://127.0.0.1:${port}`;
    await stack.startExtra('gateway-s3', serviceEntry('gateway'), {
      TROVE_GATEWAY_PORT: String(port),
      TROVE_S3_BUCKET: 'trove-disk',
      TROVE_S3_ENDPOINT: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      TROVE_S3_REGION: s3.region,
      TROVE_S3_ACCESS_KEY_ID: s3.accessKeyId,
      TROVE_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      TROVE_S3_QUOTA_BYTES: '1000000',
    });
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
    proxy?.closeAllConnections();
    await new Promise((resolve) => proxy?.close(resolve));
    await s3?.stop();
  });

  it('lists the bucket once for many concurrent and following calls (the figure is kept 60 s)', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => fetch(`${gatewayUrl}/disk`).then((r) => r.json())),
    );
    expect(answers).toEqual(Array(10).fill({ total: 1000000, used: 0, free: 1000000 }));
    for (let i = 0; i < 5; i++) expect((await fetch(`${gatewayUrl}/disk`)).status).toBe(200);
    expect(listings).toBe(1);
  });
});
