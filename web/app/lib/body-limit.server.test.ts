import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { request } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { LINGER_MS, bodyLimit, isStreamedBodyRoute } from './body-limit.server';

/** A server behind the limit that reads whole bodies and answers their size. */
let server: Server;
let port: number;
beforeAll(async () => {
  const limit = bodyLimit(1024);
  server = createServer((req, res) =>
    limit(req, res, () => {
      let n = 0;
      req.on('data', (c: Buffer) => (n += c.length));
      req.on('end', () => res.end(JSON.stringify({ read: n })));
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** A POST through node:http; `body`: sent whole, or 'endless' (64 KiB pieces for as long as the connection takes them). */
function send(
  path: string,
  body: Buffer | 'endless' | null,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        req.destroy();
      });
    });
    req.on('error', reject);
    if (body === 'endless') {
      const piece = Buffer.alloc(64 * 1024);
      const write = () => {
        while (!req.destroyed && req.write(piece));
        if (!req.destroyed) req.once('drain', write);
      };
      write();
    } else if (body) req.end(body);
    else req.end();
  });
}

/** Raw HTTP: the answer's first line once it comes, and when the server ends the connection (ms), while `trickle` bytes keep going. */
function rawRefusal(head: string): Promise<{ statusLine: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let text = '';
    let trickle: NodeJS.Timeout | undefined;
    // The body's bytes only after the head: a write queued before the connection is up would go first.
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(head);
      trickle = setInterval(() => socket.writable && socket.write(Buffer.alloc(1024, 'a')), 20);
    });
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(trickle);
      if (!text) return reject(new Error('closed without an answer'));
      resolve({ statusLine: text.split('\r\n')[0], closedAfterMs: Date.now() - started });
    });
  });
}

describe('bodyLimit', () => {
  it('passes bodies up to the limit', async () => {
    expect(await send('/login', Buffer.alloc(1024, 'a'))).toMatchObject({ status: 200, body: { read: 1024 } });
  });

  it('answers 413 from the declared length, before reading, while an endless body is still coming', async () => {
    expect(await send('/login', 'endless', { 'Content-Length': String(100 * 1024 ** 3) })).toEqual({
      status: 413,
      body: { message: 'request body too large: at most 1024 bytes here' },
    });
  });

  it('answers 411 to a body without a length (chunked), endless too', async () => {
    const res = await send('/api/items', 'endless', { 'Transfer-Encoding': 'chunked' });
    expect(res.status).toBe(411);
    expect(res.body).toEqual({ message: expect.stringMatching(/Content-Length/) });
  });

  it('cuts a refused connection whose body goes on after the linger', async () => {
    const { statusLine, closedAfterMs } = await rawRefusal(
      'POST /login HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999999\r\n\r\n',
    );
    expect(statusLine).toBe('HTTP/1.1 413 Payload Too Large');
    expect(closedAfterMs).toBeGreaterThanOrEqual(LINGER_MS - 100);
    expect(closedAfterMs).toBeLessThan(LINGER_MS + 5_000);
  });

  it('leaves the upload relay alone, and only it', async () => {
    expect(await send('/api/upload?x=1', Buffer.alloc(4096))).toMatchObject({ status: 200, body: { read: 4096 } });
    expect(isStreamedBodyRoute('POST', '/api/upload')).toBe(true);
    expect(isStreamedBodyRoute('PUT', '/api/upload')).toBe(false);
    expect(isStreamedBodyRoute('POST', '/api/uploads')).toBe(false);
    expect((await send('/api/uploads', Buffer.alloc(4096))).status).toBe(413);
  });
});
