import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { AppError, createLogger } from '@trove/kit';
import { errorHandler, notFoundHandler } from './error-handler';

/** A tiny app whose routes fail in every way the gateway meets, behind the real error handler. */
describe('error mapping (RPC and framework failures → HTTP)', () => {
  let server: Server;
  let base: string;
  let logged = '';

  beforeAll(async () => {
    const destination = new Writable({
      write(chunk: Buffer, _enc, cb) {
        logged += chunk.toString();
        cb();
      },
    });
    const app = express();
    app.use(express.json({ limit: '10b' }));
    const fail =
      (err: unknown): express.RequestHandler =>
      () => {
        throw err;
      };
    app.get('/not-found', fail(new AppError('NOT_FOUND', 'user not found')));
    app.get('/conflict', fail(new AppError('CONFLICT', 'mediaitem already exists', { id: 'abc' })));
    app.get('/bad', fail(new AppError('BAD_REQUEST', 'password is too weak')));
    app.get('/unauthorized', fail(new AppError('UNAUTHORIZED', 'Unauthorized')));
    app.get('/limited', fail(new AppError('TOO_MANY_REQUESTS', 'too many login attempts', { retryAfterSeconds: 42 })));
    app.get('/unavailable', fail(new AppError('UNAVAILABLE', 'auth service did not answer in time')));
    app.get('/internal', fail(new AppError('INTERNAL', 'db exploded at /secret/path')));
    app.get('/crash', fail(new Error('TypeError deep inside')));
    app.get(
      '/validator',
      fail(Object.assign(new Error('request/params/id must match format "uuid"'), { status: 400 })),
    );
    app.get(
      '/method',
      fail(Object.assign(new Error('PATCH method not allowed'), { status: 405, headers: { Allow: 'GET, PUT' } })),
    );
    app.post('/echo', (req, res) => {
      res.json(req.body);
    });
    app.use(notFoundHandler());
    app.use(errorHandler(createLogger({ service: 'test', destination })));
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = async (path: string, init?: RequestInit) => {
    const res = await fetch(base + path, init);
    return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
  };

  it.each([
    ['/not-found', 404, { message: 'user not found' }],
    ['/conflict', 409, { message: 'mediaitem already exists', id: 'abc' }],
    ['/bad', 400, { message: 'password is too weak' }],
    ['/unauthorized', 401, { message: 'Unauthorized' }],
    ['/unavailable', 503, { message: 'auth service did not answer in time' }],
    ['/validator', 400, { message: 'request/params/id must match format "uuid"' }],
    ['/nowhere', 404, { message: 'not found' }],
  ])('%s → %i', async (path, status, body) => {
    const res = await get(path);
    expect(res.status).toBe(status);
    expect(res.body).toEqual(body);
  });

  it('429 carries Retry-After as a header', async () => {
    const res = await get('/limited');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('42');
    expect(res.body).toEqual({ message: 'too many login attempts' });
  });

  it('405 carries Allow', async () => {
    const res = await get('/method');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, PUT');
  });

  it('unexpected failures answer a generic 500 and only the log has the details', async () => {
    for (const path of ['/crash', '/internal']) {
      const res = await get(path);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ message: 'internal server error' });
    }
    expect(logged).toContain('TypeError deep inside');
    expect(logged).toContain('db exploded');
  });

  it('body parser failures are JSON too', async () => {
    const json = { 'content-type': 'application/json' };
    expect(await get('/echo', { method: 'POST', headers: json, body: '{"a":' })).toMatchObject({
      status: 400,
      body: { message: 'request body is not valid JSON' },
    });
    expect(
      await get('/echo', { method: 'POST', headers: json, body: JSON.stringify({ long: 'x'.repeat(100) }) }),
    ).toMatchObject({
      status: 413,
      body: { message: 'request body too large' },
    });
  });
});
