import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bodyLimit, isStreamedBodyRoute } from './body-limit.server';

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

function send(path: string, body: Buffer | null, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown; connection?: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), connection: res.headers.connection }));
    });
    // The server may close while the body is still going out: only the answer matters.
    req.on('error', (err) => (err.message.includes('EPIPE') || err.message.includes('ECONNRESET') ? undefined : reject(err)));
    if (body) req.end(body);
    else req.end();
  });
}

describe('bodyLimit', () => {
  it('passes bodies up to the limit', async () => {
    expect(await send('/login', Buffer.alloc(1024, 'a'))).toMatchObject({ status: 200, body: { read: 1024 } });
  });

  it('answers 413 from the declared length, closing the connection, before reading', async () => {
    const res = await send('/login', null, { 'Content-Length': String(10 * 1024 * 1024) });
    expect(res).toEqual({ status: 413, body: { message: 'request body too large: at most 1024 bytes here' }, connection: 'close' });
  });

  it('answers 411 to a body without a length (chunked)', async () => {
    const res = await send('/api/items', null, { 'Transfer-Encoding': 'chunked' });
    expect(res.status).toBe(411);
    expect(res.body).toEqual({ message: expect.stringMatching(/Content-Length/) });
  });

  it('leaves the upload relay alone, and only it', async () => {
    expect(await send('/api/upload?x=1', Buffer.alloc(4096))).toMatchObject({ status: 200, body: { read: 4096 } });
    expect(isStreamedBodyRoute('POST', '/api/upload')).toBe(true);
    expect(isStreamedBodyRoute('PUT', '/api/upload')).toBe(false);
    expect(isStreamedBodyRoute('POST', '/api/uploads')).toBe(false);
    expect((await send('/api/uploads', Buffer.alloc(4096))).status).toBe(413);
  });
});
