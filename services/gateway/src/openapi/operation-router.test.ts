import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createLogger, notFound } from '@trove/kit';
import { errorHandler, notFoundHandler } from '../http/error-handler';
import { OperationRouter } from './operation-router';
import { openApiValidator } from './validator';

const ID = '3f1e7c2a-9b4d-4e8f-a1c2-5d6e7f8a9b0c';

/** The router behind the real validator and error handler: what handlers get is what the types say. */
describe('operation router', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const routes = new OperationRouter();
    // Each handler answers what it was given, with the runtime type of every value.
    const typed = (values: object) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, [v, typeof v]]));
    routes.handle('listAlbums', async (req, res) => {
      res.json(typed(req.query) as never);
    });
    routes.handle('getAlbum', async (req, res) => {
      if (req.params.id === ID) throw notFound('album not found');
      res.json(typed(req.params) as never);
    });
    routes.handle('createAlbum', async (req, res) => {
      res.status(201).json(typed(req.body) as never);
    });
    const app = express();
    app.use(express.json());
    app.use(openApiValidator({ validateResponses: false }));
    app.use(routes.router);
    app.use(notFoundHandler());
    app.use(errorHandler(createLogger({ service: 'test', level: 'silent' })));
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(base + path, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as unknown };
  };

  it("hands over the query coerced to its declared types, with the contract's defaults filled in", async () => {
    expect(await call('GET', '/v1/albums')).toEqual({
      status: 200,
      body: { sort: ['name', 'string'], page: [1, 'number'], limit: [15, 'number'], hidden: [false, 'boolean'] },
    });
    expect((await call('GET', '/v1/albums?page=3&limit=7&shared=true&hidden=true&sort=-name')).body).toEqual({
      sort: ['-name', 'string'],
      page: [3, 'number'],
      limit: [7, 'number'],
      shared: [true, 'boolean'],
      hidden: [true, 'boolean'],
    });
  });

  it('routes by the method and path openapi.yaml declares for the operation', async () => {
    const other = '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d';
    expect(await call('GET', `/v1/albums/${other}`)).toEqual({ status: 200, body: { id: [other, 'string'] } });
    // Body defaults are filled in too (AlbumRequest's shareLocation, shareAllowDownload and hidden).
    expect(await call('POST', '/v1/albums', { name: 'Trip', shared: true })).toEqual({
      status: 201,
      body: {
        name: ['Trip', 'string'],
        shared: [true, 'boolean'],
        shareAllowDownload: [true, 'boolean'],
        shareLocation: [false, 'boolean'],
        hidden: [false, 'boolean'],
      },
    });
    // Declared, but not handled by this router.
    expect((await call('DELETE', `/v1/albums/${other}`)).status).toBe(404);
  });

  it('never runs a handler on a request the validator refused', async () => {
    expect((await call('GET', '/v1/albums?page=zero')).status).toBe(400);
    expect((await call('GET', '/v1/albums?unknown=1')).status).toBe(400);
    expect((await call('GET', '/v1/albums/not-a-uuid')).status).toBe(400);
    expect((await call('POST', '/v1/albums', { shared: true })).status).toBe(400);
  });

  it('sends a rejected handler to the error handler', async () => {
    expect(await call('GET', `/v1/albums/${ID}`)).toEqual({ status: 404, body: { message: 'album not found' } });
  });

  it('refuses an operation openapi.yaml does not declare', () => {
    expect(() => new OperationRouter().handle('noSuchOperation' as 'getAlbum', async () => undefined)).toThrow(
      /declares no operation noSuchOperation/,
    );
  });
});
