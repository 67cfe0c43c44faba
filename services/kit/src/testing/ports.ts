import { createServer } from 'node:net';

/** Ports this process handed out already: the OS may offer a port again once its probe closed. */
const handedOut = new Set<number>();

/**
 * A TCP port that was free a moment ago on 127.0.0.1 (the OS picks it), never one this process
 * handed out before: a test asking for a gateway's port and then a web server's got the same one
 * twice in a CI run (the web server then found the gateway on it).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const port = await probePort();
    if (!handedOut.has(port) || attempt >= 100) {
      handedOut.add(port);
      return port;
    }
  }
}

function probePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
