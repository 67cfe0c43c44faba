/**
 * TroveApi against a real HTTP server on loopback, which parses the multipart bodies with busboy as the gateway does.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import busboy from 'busboy';
import { fileSource, TroveApi } from './api';
import { HttpError } from './retry';

const source = async (file: string) => fileSource(file, (await stat(file)).size);

type Handler = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  received: { name: string; sha256: string; bytes: number },
) => void;

describe('TroveApi', () => {
  let server: http.Server;
  let url: string;
  let dir: string;
  let handle: Handler;
  let answerAtOnce: { status: number; body: unknown } | undefined;
  const requests: Array<{ apiKey: string | undefined; contentLength: number; name?: string; sha256?: string }> = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'trove-api-'));
    server = http.createServer((req, res) => {
      const entry: (typeof requests)[number] = {
        apiKey: req.headers['x-api-key'] as string | undefined,
        contentLength: Number(req.headers['content-length']),
      };
      requests.push(entry);
      if (req.url !== '/v1/mediaItems') {
        res.writeHead(404).end();
        return;
      }
      if (answerAtOnce) {
        // As the gateway refuses a file larger than the room left: before reading the body.
        json(res, answerAtOnce.status, answerAtOnce.body);
        return;
      }
      const parser = busboy({ headers: req.headers, defParamCharset: 'utf8' });
      parser.on('file', (_field, stream, info) => {
        const hash = createHash('sha256');
        let bytes = 0;
        stream.on('data', (d: Buffer) => {
          hash.update(d);
          bytes += d.length;
        });
        stream.on('end', () => {
          entry.name = info.filename;
          entry.sha256 = hash.digest('hex');
          handle(req, res, { name: info.filename ?? '', sha256: entry.sha256, bytes });
        });
      });
      // A body cut short (the client gave up on it) is no upload: the connection goes.
      parser.on('error', () => req.destroy());
      req.pipe(parser);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    requests.length = 0;
    answerAtOnce = undefined;
  });

  const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));

  it('streams the file as the multipart part `file` with its name and exact length, sending the API key', async () => {
    const data = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    const file = path.join(dir, 'Sommer "am" Meer.jpg');
    await writeFile(file, data);
    handle = (_req, res) => json(res, 201, { id: '3f1e7c2a-9b4d-4e8f-a1c2-5d6e7f8a9b0c' });
    const api = new TroveApi(url, { apiKey: 'trove_k' });
    let counted = 0;
    const result = await api.upload(await source(file), (n) => (counted += n));
    api.close();

    expect(result).toEqual({ id: '3f1e7c2a-9b4d-4e8f-a1c2-5d6e7f8a9b0c', duplicate: false });
    expect(counted).toBe(data.length);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      apiKey: 'trove_k',
      name: 'Sommer %22am%22 Meer.jpg',
      sha256: createHash('sha256').update(data).digest('hex'),
    });
    expect(requests[0].contentLength).toBeGreaterThan(data.length);
  });

  it('fails, sending no whole part, for a file whose size changed since the walk', async () => {
    const file = path.join(dir, 'growing.jpg');
    await writeFile(file, Buffer.alloc(300_000, 3));
    handle = (_req, res) => json(res, 201, { id: '3f1e7c2a-9b4d-4e8f-a1c2-5d6e7f8a9b0c' });
    const api = new TroveApi(url, { apiKey: 'k' });
    // Walked at 200,000 bytes, 300,000 now: the first 200,000 alone must not arrive as the file.
    await expect(api.upload(fileSource(file, 200_000))).rejects.toThrow('changed while it was being sent');
    await expect(api.upload(fileSource(file, 400_000))).rejects.toThrow('changed while it was being sent');
    api.close();
    expect(requests.filter((r) => r.sha256)).toEqual([]);
  });

  it('reports the answer of a server that refuses before reading the body', async () => {
    const file = path.join(dir, 'large.mp4');
    await writeFile(file, Buffer.alloc(16 * 1024 * 1024, 1));
    answerAtOnce = { status: 507, body: { message: 'storage quota exceeded' } };
    const api = new TroveApi(url, { apiKey: 'k' });
    await expect(api.upload(await source(file))).rejects.toMatchObject({
      status: 507,
      message: '507 storage quota exceeded',
    });
    api.close();
  });

  it('answers a 409 as the existing item', async () => {
    const file = path.join(dir, 'dup.png');
    await writeFile(file, 'same');
    handle = (_req, res) =>
      json(res, 409, { message: 'mediaitem already exists', id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d' });
    const api = new TroveApi(url, { apiKey: 'k' });
    await expect(api.upload(await source(file))).resolves.toEqual({
      id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
      duplicate: true,
    });
    api.close();
  });

  it('sends again after a 503 and after a 429 (waiting its Retry-After), taking back the bytes of the failed tries', async () => {
    const file = path.join(dir, 'retry.jpg');
    await writeFile(file, Buffer.alloc(1000, 1));
    const answers = [
      (res: http.ServerResponse) => json(res, 503, { message: 'unavailable' }),
      (res: http.ServerResponse) => json(res, 429, { message: 'slow down' }, { 'Retry-After': '1' }),
      (res: http.ServerResponse) => json(res, 201, { id: '3f1e7c2a-9b4d-4e8f-a1c2-5d6e7f8a9b0c' }),
    ];
    handle = (_req, res) => answers.shift()!(res);
    const waits: number[] = [];
    const api = new TroveApi(url, { apiKey: 'k' }, { sleep: async (ms) => void waits.push(ms), baseMs: 10 });
    let counted = 0;
    await expect(api.upload(await source(file), (n) => (counted += n))).resolves.toMatchObject({ duplicate: false });
    api.close();
    expect(requests).toHaveLength(3);
    expect(waits[1]).toBe(1000);
    expect(counted).toBe(1000);
  });

  it('gives up at once on a final answer, saying the server’s message', async () => {
    const file = path.join(dir, 'notes.ts');
    await writeFile(file, 'export {}');
    handle = (_req, res) => json(res, 400, { message: 'unsupported file type' });
    const api = new TroveApi(url, { apiKey: 'k' }, { sleep: async () => {} });
    const err = await api.upload(await source(file)).catch((e: unknown) => e);
    api.close();
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(400);
    expect((err as HttpError).message).toContain('unsupported file type');
    expect(requests).toHaveLength(1);
  });

  it('tries again when the server is not there, then fails with the network error', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const file = path.join(dir, 'x.jpg');
    await writeFile(file, 'x');
    let tries = 0;
    const api = new TroveApi(
      `http://127.0.0.1:${port}`,
      { apiKey: 'k' },
      { attempts: 3, sleep: async () => void tries++ },
    );
    await expect(api.upload(await source(file))).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await expect(api.existing(['a'.repeat(64)])).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    api.close();
    expect(tries).toBe(4);
  });
});
