import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFakeGateway } from '../../test/fake-gateway';
import type { FakeGateway } from '../../test/fake-gateway';
import { createContentProxy, isContentRequest } from './content-proxy.server';
import { localizeUrl } from './content-url.server';

const ID = '3f1e7c2a-9b4d-4e8f-a1c2-5d6e7f8a9b0c';
let gw: FakeGateway;
let web: Server;
let webUrl: string;

beforeEach(async () => {
  gw = await startFakeGateway();
  const proxy = createContentProxy(gw.url);
  web = createServer((req, res) => void proxy(req, res));
  await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
  webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
});
afterEach(async () => {
  web.closeAllConnections();
  await new Promise((r) => web.close(r));
  await gw.close();
});

describe('content proxy', () => {
  it('knows the content URLs and nothing else', () => {
    expect(isContentRequest('GET', `/v1/mediaItems/${ID}/thumbnail?exp=1&sig=x`)).toBe(true);
    expect(isContentRequest('HEAD', `/v1/mediaItems/${ID}/original`)).toBe(true);
    expect(isContentRequest('POST', `/v1/mediaItems/${ID}/original`)).toBe(false);
    expect(isContentRequest('GET', `/v1/mediaItems/${ID}`)).toBe(false);
    expect(isContentRequest('GET', `/v1/explore/faces/${ID}/thumbnail?exp=1&sig=x`)).toBe(true);
    expect(isContentRequest('GET', `/v1/explore/faces/${ID}`)).toBe(false);
    expect(isContentRequest('GET', `/v1/explore/people/${ID}/thumbnail`)).toBe(false);
    expect(isContentRequest('GET', '/v1/mediaItems/../../v1/users/original')).toBe(false);
  });

  it('forwards the signed URL and Range, never the cookies, and passes 206 answers through', async () => {
    gw.on(`GET /v1/mediaItems/${ID}/preview`, {
      status: 206,
      body: 'abcd',
      headers: {
        'Content-Type': 'video/mp4',
        'Content-Range': 'bytes 0-3/100',
        'Accept-Ranges': 'bytes',
        ETag: '"e1"',
        'Set-Cookie': 'x=1',
      },
    });
    const res = await fetch(`${webUrl}/v1/mediaItems/${ID}/preview?exp=9&sig=abc`, {
      headers: { Range: 'bytes=0-3', Cookie: 'trove_session=secret', Authorization: 'Bearer nope' },
    });
    expect(res.status).toBe(206);
    expect(await res.text()).toBe('abcd');
    expect(res.headers.get('content-range')).toBe('bytes 0-3/100');
    expect(res.headers.get('etag')).toBe('"e1"');
    expect(res.headers.get('set-cookie')).toBeNull();
    const sent = gw.requests[0];
    expect(sent.path).toBe(`/v1/mediaItems/${ID}/preview?exp=9&sig=abc`);
    expect(sent.headers.range).toBe('bytes=0-3');
    expect(sent.headers.cookie).toBeUndefined();
    expect(sent.headers.authorization).toBeUndefined();
  });

  it('passes a refused signature on, and answers 503 when the gateway is down', async () => {
    gw.on(`GET /v1/mediaItems/${ID}/original`, { status: 401, body: { message: 'Unauthorized' } });
    expect((await fetch(`${webUrl}/v1/mediaItems/${ID}/original?exp=1&sig=bad`)).status).toBe(401);
    await gw.close();
    expect((await fetch(`${webUrl}/v1/mediaItems/${ID}/original?exp=1&sig=bad`)).status).toBe(503);
    gw = await startFakeGateway(); // for afterEach
  });

  it('rewrites only the URLs the gateway made for its internal address', () => {
    expect(
      localizeUrl(`http://127.0.0.1:5001/v1/mediaItems/${ID}/thumbnail?exp=1&sig=s`, 'http://127.0.0.1:5001'),
    ).toBe(`/v1/mediaItems/${ID}/thumbnail?exp=1&sig=s`);
    expect(localizeUrl('https://photos.example.org/v1/x', 'http://127.0.0.1:5001')).toBe(
      'https://photos.example.org/v1/x',
    );
    expect(localizeUrl('not a url', 'http://127.0.0.1:5001')).toBe('not a url');
  });
});
