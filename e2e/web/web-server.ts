/**
 * The built web server (web/server.mjs) as one more process of a test stack, in front of its
 * gateway. It shares the stack's variables and data directory, as under `make up`, so it reads the
 * proxy secret the gateway generated there; it stops with the stack.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { freePort } from '@trove/kit/testing';
import type { ServiceProcess, Stack } from '@trove/kit/testing';

export const WEB_DIR = join(__dirname, '..', '..', 'web');

/** The newest modification time under a directory (ignoring node_modules and build output). */
function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'build' || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** `make build` builds the web app; build it here too when it is missing or older than its sources. */
function ensureBuilt(): void {
  const out = join(WEB_DIR, 'build', 'server', 'index.js');
  if (existsSync(out) && statSync(out).mtimeMs >= newest(join(WEB_DIR, 'app'))) return;
  const remix = createRequire(join(WEB_DIR, 'package.json')).resolve('@remix-run/dev/dist/cli.js');
  execFileSync(process.execPath, [remix, 'vite:build'], { cwd: WEB_DIR, stdio: 'pipe' });
}

/** Starts the web server on a free loopback port against the stack's gateway; resolves once it is ready. */
export async function startWebServer(
  stack: Stack,
  env: Record<string, string> = {},
): Promise<{ web: ServiceProcess; origin: string }> {
  ensureBuilt();
  const port = await freePort();
  const web = await stack.startExtra('web', join(WEB_DIR, 'server.mjs'), {
    TROVE_API_URL: stack.gatewayUrl,
    TROVE_WEB_PORT: String(port),
    TROVE_WEB_HOST: '127.0.0.1',
    TROVE_SESSION_SECRET: randomBytes(32).toString('base64url'),
    ...env,
  });
  return { web, origin: `http://127.0.0.1:${port}` };
}
