import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createLogger } from '@trove/kit';
import { errorHandler } from './error-handler';
import { queryStringCheck } from './query-string';

/** The raw query string check in front of a route that echoes what Express decoded. */
describe('queryStringCheck', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const app = express();
    app.use(queryStringCheck());
    app.get('/echo', (req, res) => {
      res.json(req.query);
    });
    app.use(errorHandler(createLogger({ service: 'test', level: 'silent' })));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const get = async (query: string) => {
    const res = await fetch(`${base}/echo?${query}`);
    return { status: res.status, body: (await res.json()) as unknown };
  };

  it('reads + and %20 alike as a space, %2B as a plus', async () => {
    expect(await get('q=iphone+15')).toEqual({ status: 200, body: { q: 'iphone 15' } });
    expect(await get('q=iphone%2015')).toEqual({ status: 200, body: { q: 'iphone 15' } });
    expect(await get('q=c%2B%2B&sort=%2Bname')).toEqual({ status: 200, body: { q: 'c++', sort: '+name' } });
    expect(await get('q=%C3%8Ele&empty=&flag')).toEqual({ status: 200, body: { q: 'Île', empty: '', flag: '' } });
    expect(await get('q=%2F%3A%5B%5D')).toEqual({ status: 200, body: { q: '/:[]' } });
  });

  it('reads what RFC 3986 allows in a query as it is: a date-time, a path, punctuation', async () => {
    expect(await get('at=2024-06-01T00:00:00Z')).toEqual({ status: 200, body: { at: '2024-06-01T00:00:00Z' } });
    expect(await get('at=2024-06-01T00:00:00%2B02:00')).toEqual({
      status: 200,
      body: { at: '2024-06-01T00:00:00+02:00' },
    });
    const allowed = ['a/b', 'a:b', 'a,b', 'a;b', 'a=b', 'a@b', 'a!', "it's", '(a)*', 'a$b', 'a?b'];
    for (const q of allowed)
      expect([q, await get(`page=1&q=${q}`)]).toEqual([q, { status: 200, body: { page: '1', q } }]);
  });

  it('refuses a raw bracket, naming the parameter', async () => {
    for (const query of ['q=a[b]', 'q=a]', 'page=1&q=[a']) {
      expect([query, await get(query)]).toEqual([
        query,
        {
          status: 400,
          body: {
            message: "Parameter 'q' must be url encoded. Its value may not contain [ or ] unescaped (%5B, %5D).",
          },
        },
      ]);
    }
  });

  it('refuses a % that does not start the escape of UTF-8 text', async () => {
    for (const query of ['q=100%', 'q=%ZZ', 'q=%E0%A4%A', 'q=%FF', 'q%ZZ=1']) {
      const { status, body } = await get(query);
      expect([query, status]).toEqual([query, 400]);
      expect(body).toEqual({ message: expect.stringMatching(/^Parameter '.+' must be url encoded\. It has a %/) });
    }
  });
});
