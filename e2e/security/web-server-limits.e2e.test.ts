/**
 * Security M2 and M3, against the built web server in front of a real gateway, library and media
 * service. Each browser is a real client address on loopback (127.0.0.2, 127.0.0.3, …: the client
 * socket is bound to it), as the web server sees browsers without a proxy in front.
 * - M2: one visitor hammering /share/<random id> must not close anyone else's shared album: the
 *   gateway counts sharing calls per visitor (the web server names the browser's address) and
 *   lookups of unknown ids spend a bucket of their own.
 * - M3: unauthenticated bodies are bounded before anything reads them (413 at once, the web server's
 *   memory flat), authenticated routes look at the session before the body, and the upload relay
 *   still streams a large file without holding it.
 */
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { startStack, multipartEnvelope } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { newUser, ok } from '../support/api';
import type { TestUser } from '../support/api';
import { rssBytes } from '../media/support';
import { startWebServer } from '../web/web-server';

const MiB = 1024 * 1024;
/** The gateway's bucket for lookups of unknown shared ids, per visitor (lowered from 600 so the attack is short). */
const MISS_LIMIT = 40;

let stack: Stack;
let origin: string;
let webPid: number;

beforeAll(async () => {
  stack = await startStack({
    services: ['auth', 'gateway', 'library', 'media'],
    serviceEnv: { gateway: { TROVE_SHARING_MISS_RATE_LIMIT: String(MISS_LIMIT) } },
  });
  const started = await startWebServer(stack);
  origin = started.origin;
  webPid = started.web.child.pid!;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * One request from the browser at `from` (a loopback address the socket is bound to). `body`: sent
 * whole, or a stream (written until the answer comes; the server may close the connection first).
 */
function send(
  from: string,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: Buffer | Readable; timeoutMs?: number } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${origin}${path}`,
      {
        method: opts.method ?? 'GET',
        headers: opts.headers,
        localAddress: from,
        agent: false,
        timeout: opts.timeoutMs ?? 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (opts.body instanceof Readable) opts.body.destroy();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
          req.destroy();
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer to ${path} within ${opts.timeoutMs ?? 30_000} ms`)));
    // A refusal closes the connection while the body is still going out: the answer is what counts.
    req.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err),
    );
    if (opts.body instanceof Readable) {
      // The headers go out at once, even when the body never comes.
      req.flushHeaders();
      opts.body.pipe(req);
    } else req.end(opts.body);
  });
}

/** `size` bytes of a made-up MP4 (a real `ftyp` box, then noise), produced as they are read. */
function videoLike(size: number): Readable {
  const ftyp = Buffer.from([0, 0, 0, 0x18, ...Buffer.from('ftypisom'), 0, 0, 2, 0, ...Buffer.from('isommp41')]);
  const chunk = Buffer.alloc(MiB);
  for (let i = 0; i < chunk.length; i += 4) chunk.writeUInt32LE((i * 2654435761) >>> 0, i);
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) return void this.push(null);
      const piece = sent === 0 ? ftyp : chunk.subarray(0, Math.min(chunk.length, size - sent));
      sent += piece.length;
      this.push(piece);
    },
  });
}

/** Endless zeros in 64 KiB pieces (a body that never ends, for as long as it is read). */
function endless(): Readable {
  const piece = Buffer.alloc(64 * 1024);
  return new Readable({
    read() {
      this.push(piece);
    },
  });
}

/** The web server's resident memory, sampled every 50 ms while `run` runs; the peak growth in MiB. */
async function peakGrowthMib<T>(run: () => Promise<T>): Promise<{ result: T; growthMib: number }> {
  const baseline = await rssBytes(webPid);
  let peak = baseline;
  const sampler = setInterval(
    () =>
      void rssBytes(webPid).then(
        (rss) => (peak = Math.max(peak, rss)),
        () => undefined,
      ),
    50,
  );
  try {
    const result = await run();
    return { result, growthMib: (peak - baseline) / MiB };
  } finally {
    clearInterval(sampler);
  }
}

describe('M2: one visitor cannot close shared albums for everybody (security e2e)', () => {
  let owner: TestUser;
  let albumId: string;

  beforeAll(async () => {
    owner = await newUser(stack);
    albumId = (await ok(owner.api.POST('/v1/albums', { body: { name: 'Harbour walk', shared: true } }), 201)).id;
  });

  it('a visitor hammering random share ids is limited alone; other visitors still open the real album', async () => {
    const attacker = '127.0.0.2';
    /** Dead links from the attacker until refused: each page asks for the album and its first page, two misses. */
    const hammer = async () => {
      const statuses: number[] = [];
      for (let i = 0; i < MISS_LIMIT; i++) {
        const res = await send(attacker, `/share/${randomUUID()}`);
        statuses.push(res.status);
        if (res.status === 429) break;
      }
      return statuses;
    };
    const statuses = await hammer();
    expect(statuses[0]).toBe(404);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.length).toBeGreaterThan(5);

    for (const visitor of ['127.0.0.3', '127.0.0.4']) {
      const page = await send(visitor, `/share/${albumId}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('Harbour walk');
      // And the grid's own calls for the next page work too.
      const items = await send(visitor, `/share/${albumId}/items?page=1`);
      expect({ status: items.status, body: JSON.parse(items.text) as unknown }).toEqual({
        status: 200,
        body: { items: [] },
      });
    }
    // Someone else's dead link is an honest 404, not the attacker's 429.
    expect((await send('127.0.0.5', `/share/${randomUUID()}`)).status).toBe(404);
    // The attacker stays refused while their own bucket holds less than a miss. It refills continuously (a miss every
    // 1.5 s, 40 a minute), so after the refusal that ends a hammering it holds anything from 0 to just under 1, and a
    // check that a busy machine sends a few hundred ms later may find a whole miss again (allowed, rightly; it failed
    // so twice on CI). So: drained and checked again until a check falls inside the empty moment. A limiter that let
    // the attacker through would answer 200 every time.
    const refusedWhileDrained = async (): Promise<number[]> => {
      const checks: number[] = [];
      while (checks.length < 5 && !checks.includes(429)) {
        expect((await hammer()).at(-1)).toBe(429);
        checks.push((await send(attacker, `/share/${albumId}`)).status);
      }
      return checks;
    };
    expect(await refusedWhileDrained()).toContain(429);
  });
});

describe('M3: request bodies are bounded before they are read (security e2e)', () => {
  it.each(['/login', '/theme', '/api/items', '/setup'])(
    'POST %s with a 1 GiB body: 413 at once, the web server’s memory flat',
    async (path) => {
      const started = Date.now();
      const { result, growthMib } = await peakGrowthMib(() =>
        send('127.0.0.6', path, {
          method: 'POST',
          headers: {
            Origin: origin,
            'Content-Type': 'application/x-www-form-urlencoded',
            'Content-Length': String(1024 * MiB),
          },
          body: endless(),
        }),
      );
      expect(result.status).toBe(413);
      expect(JSON.parse(result.text)).toEqual({
        message: expect.stringMatching(/^request body too large: at most \d+ bytes here$/),
      });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(growthMib).toBeLessThan(30);
    },
  );

  it('a body without a length (chunked) is refused with 411, also endless', async () => {
    const res = await send('127.0.0.6', '/login', {
      method: 'POST',
      headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded', 'Transfer-Encoding': 'chunked' },
      body: endless(),
    });
    expect(res.status).toBe(411);
    expect(JSON.parse(res.text)).toEqual({ message: expect.stringMatching(/Content-Length/) });
  });

  it('a small body still works (the login form)', async () => {
    const res = await send('127.0.0.6', '/theme', {
      method: 'POST',
      headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: Buffer.from('theme=dark'),
    });
    expect({ status: res.status, body: JSON.parse(res.text) as unknown }).toEqual({
      status: 200,
      body: { theme: 'dark' },
    });
  });

  it.each(['/api/items', '/api/albums'])(
    'POST %s without a session is answered 401 before its body arrives',
    async (path) => {
      // The body is announced and never sent: only an answer given before reading it can come back.
      const body = new Readable({ read() {} });
      const res = await send('127.0.0.7', path, {
        method: 'POST',
        headers: { Origin: origin, 'Content-Type': 'application/json', 'Content-Length': '1000' },
        body,
        timeoutMs: 10_000,
      });
      expect({ status: res.status, body: JSON.parse(res.text) as unknown }).toEqual({
        status: 401,
        body: { message: 'Unauthorized' },
      });
    },
  );

  it('the upload relay still streams a 256 MiB file through the web server without holding it', async () => {
    const user = await newUser(stack);
    const login = await send('127.0.0.8', '/login', {
      method: 'POST',
      headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: Buffer.from(
        new URLSearchParams({ username: user.username, password: user.password, redirectTo: '/' }).toString(),
      ),
    });
    expect(login.status).toBe(302);
    const cookie = String(login.headers['set-cookie']?.find((c) => c.startsWith('trove_session='))).split(';')[0];

    const size = 256 * MiB;
    const { head, tail, contentType } = multipartEnvelope('big.mp4');
    const body = Readable.from(
      (async function* () {
        yield head;
        yield* videoLike(size);
        yield tail;
      })(),
    );
    const { result, growthMib } = await peakGrowthMib(() =>
      send('127.0.0.8', '/api/upload', {
        method: 'POST',
        headers: {
          Origin: origin,
          Cookie: cookie,
          'Content-Type': contentType,
          'Content-Length': String(head.length + size + tail.length),
        },
        body,
        timeoutMs: 170_000,
      }),
    );
    expect(result.status).toBe(201);
    const { id } = JSON.parse(result.text) as { id: string };
    expect((await ok(user.api.GET('/v1/mediaItems/{id}', { params: { path: { id } } }))).size).toBe(size);
    expect(growthMib).toBeLessThan(100);
  }, 180_000);
});
