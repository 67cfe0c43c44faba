import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { CLIENT_ADDRESS_HEADER, ClientAddresses, PROXY_SECRET_HEADER, trustProxies } from './client-address';

const SECRET = 'the-proxy-secret-the-proxy-secret-0123';

/** A tiny app on loopback that answers with the client address the gateway would use. */
async function echoServer(proxies: string[]): Promise<{
  server: Server;
  addressOf: (headers: Record<string, string>) => Promise<{ address: string; protocol: string }>;
}> {
  const app = express();
  trustProxies(app, proxies);
  const addresses = new ClientAddresses(SECRET);
  app.get('/', (req, res) => {
    res.json({ address: addresses.of(req), protocol: req.protocol });
  });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    server,
    addressOf: async (headers) =>
      (await fetch(base, { headers })).json() as Promise<{ address: string; protocol: string }>,
  };
}

/** `addressOf` on an echo server for the describe block it is called in: started before its tests, closed after. */
function echoServerFor(
  proxies: string[],
): (headers: Record<string, string>) => Promise<{ address: string; protocol: string }> {
  let s: Awaited<ReturnType<typeof echoServer>>;
  beforeAll(async () => (s = await echoServer(proxies)));
  afterAll(() => s.server.close());
  return (headers) => s.addressOf(headers);
}

describe('client address', () => {
  describe('with no trusted proxy (the default)', () => {
    const addressOf = echoServerFor([]);

    it('ignores X-Forwarded-For and X-Forwarded-Proto, even from loopback', async () => {
      expect(await addressOf({ 'X-Forwarded-For': '198.51.100.7', 'X-Forwarded-Proto': 'https' })).toEqual({
        address: '127.0.0.1',
        protocol: 'http',
      });
    });

    it('believes X-Trove-Client-Address next to the proxy secret', async () => {
      expect((await addressOf({ [CLIENT_ADDRESS_HEADER]: '203.0.113.9', [PROXY_SECRET_HEADER]: SECRET })).address).toBe(
        '203.0.113.9',
      );
      expect((await addressOf({ [CLIENT_ADDRESS_HEADER]: '2001:db8::5', [PROXY_SECRET_HEADER]: SECRET })).address).toBe(
        '2001:db8::5',
      );
    });

    it.each([
      ['without the secret', {}],
      ['with a wrong secret', { [PROXY_SECRET_HEADER]: 'guess' }],
      ['with a wrong secret of the right length', { [PROXY_SECRET_HEADER]: SECRET.replace(/.$/, 'x') }],
      ['with an empty secret', { [PROXY_SECRET_HEADER]: '' }],
    ])('ignores a forged X-Trove-Client-Address %s', async (_what, headers: Record<string, string>) => {
      expect((await addressOf({ [CLIENT_ADDRESS_HEADER]: '203.0.113.9', ...headers })).address).toBe('127.0.0.1');
    });

    it('ignores a client address that is not an address, secret or not', async () => {
      expect(
        (await addressOf({ [CLIENT_ADDRESS_HEADER]: 'evil, 203.0.113.9', [PROXY_SECRET_HEADER]: SECRET })).address,
      ).toBe('127.0.0.1');
    });
  });

  describe('with a listed trusted proxy', () => {
    const addressOf = echoServerFor(['127.0.0.1/8']);

    it('takes the client address and protocol the proxy forwards', async () => {
      expect(await addressOf({ 'X-Forwarded-For': '198.51.100.7', 'X-Forwarded-Proto': 'https' })).toEqual({
        address: '198.51.100.7',
        protocol: 'https',
      });
    });

    it('believes only the addresses its trusted proxies added', async () => {
      // The client wrote the first entry itself; the proxy on loopback appended the one it saw.
      expect((await addressOf({ 'X-Forwarded-For': '192.0.2.1, 198.51.100.7' })).address).toBe('198.51.100.7');
    });
  });
});
