/**
 * Who is on the other end of a request, for the per-address limits. Two ways to learn an
 * address other than the socket's, both explicit:
 * - `X-Forwarded-For` from a proxy listed in TROVE_TRUSTED_PROXIES (none by default: a client on
 *   the LAN must not choose its own address);
 * - `X-Trove-Client-Address` from the web server, which logs browsers in from its own address:
 *   believed only next to `X-Trove-Proxy-Secret` holding TROVE_PROXY_SECRET, which only the web
 *   server and the gateway know.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { Express, Request } from 'express';
import { addressKey, loadOrCreateSecret } from '@trove/kit';
import type { Logger } from '@trove/kit';

export const CLIENT_ADDRESS_HEADER = 'X-Trove-Client-Address';
export const PROXY_SECRET_HEADER = 'X-Trove-Proxy-Secret';
/** Its name under `<data>/secrets` when TROVE_PROXY_SECRET is unset (the web server reads the same file). */
export const PROXY_SECRET_NAME = 'proxy-secret';

/** Makes `req.ip` honour X-Forwarded-For from the listed proxies only. */
export function trustProxies(app: Express, proxies: string[]): void {
  app.set('trust proxy', proxies.length ? proxies : false);
}

/** What is read of a request (any route's, whatever its typed params, query and body). */
export type RequestFrom = Pick<Request, 'get' | 'ip' | 'socket'>;

/** Reads the address of the person behind a request (see the module comment). */
export class ClientAddresses {
  private readonly secretDigest: Buffer;

  constructor(proxySecret: string) {
    this.secretDigest = digest(proxySecret);
  }

  of(req: RequestFrom): string | undefined {
    const forwarded = req.get(CLIENT_ADDRESS_HEADER)?.trim();
    if (forwarded && isIP(forwarded) && this.fromProxy(req)) return forwarded;
    return req.ip || req.socket.remoteAddress;
  }

  /** Who the request counts against in a rate limit (see `addressKey`). */
  keyOf(req: RequestFrom): string {
    return addressKey(this.of(req) ?? 'unknown');
  }

  private fromProxy(req: RequestFrom): boolean {
    const presented = req.get(PROXY_SECRET_HEADER);
    // Digests first: equal lengths for timingSafeEqual, and the comparison time says nothing of the secret.
    return presented !== undefined && timingSafeEqual(digest(presented), this.secretDigest);
  }
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

/** The proxy secret from TROVE_PROXY_SECRET, else the one generated under the data dir (the web server's too under `make up`). */
export function loadClientAddresses(config: { dataDir: string; proxySecret?: string }, log: Logger): ClientAddresses {
  const secret = loadOrCreateSecret({
    dataDir: config.dataDir,
    name: PROXY_SECRET_NAME,
    fromConfig: config.proxySecret,
  });
  if (secret.generated) log.info({ path: secret.path }, 'generated the proxy secret');
  return new ClientAddresses(secret.value);
}
