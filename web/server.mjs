#!/usr/bin/env node
// @ts-check
/**
 * The Trove web server: serves the built Remix app (web/build, from `npm run build -w web`), its
 * static assets, and the media bytes behind the signed content URLs (streamed from the gateway).
 * Configuration comes from TROVE_* variables (see web/README.md); a bad one stops it with exit 78,
 * like the services. Prints `service ready` when it listens; SIGTERM/SIGINT stop it cleanly.
 * `--dev` serves the sources through Vite instead (hot reload), with the same server around them.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequestHandler } from '@remix-run/express';
import { loadOrCreateSecret } from '@trove/kit/secrets';
import express from 'express';

const here = dirname(fileURLToPath(import.meta.url));
const buildFile = join(here, 'build', 'server', 'index.js');
const dev = process.argv.includes('--dev');
if (!dev && !existsSync(buildFile)) {
  process.stderr.write(`web: ${buildFile} is missing: build the web app first (npm run build -w web, or make build)\n`);
  process.exit(1);
}

const vite = dev ? await (await import('vite')).createServer({ root: here, server: { middlewareMode: true } }) : undefined;
/** @returns {Promise<import('@remix-run/node').ServerBuild>} */
const loadBuild = async () => (vite ? /** @type {import('@remix-run/node').ServerBuild} */ (await vite.ssrLoadModule('virtual:remix/server-build')) : import(pathToFileURL(buildFile).href));
const build = await loadBuild();
/** What entry.server.tsx exports besides Remix's own. */
const entry = /** @type {typeof import('./app/entry.server')} */ (/** @type {unknown} */ (build.entry.module));
const { log } = entry;

/** Where a generated session secret was written, to log once the logger has its level. */
let generatedSecretPath = '';
/** The session secret, when TROVE_SESSION_SECRET is unset: generated once under the data dir, like the services' secrets. */
function generatedSessionSecret() {
  const dataDir = resolve(process.env.TROVE_DATA_DIR || './data');
  const secret = loadOrCreateSecret({ dataDir, name: 'web-session-secret' });
  if (secret.generated && secret.path) generatedSecretPath = secret.path;
  return secret.value;
}

// A bad variable stops the server here with a message naming it (exit code 78), like the services.
const config = entry.webConfigOrExit(process.env, generatedSessionSecret);
log.level = config.logLevel;
if (generatedSecretPath) log.info({ path: generatedSecretPath }, 'generated the session secret');

const context = entry.createWebContext(config);
const contentProxy = entry.createContentProxy(config.apiUrl);

const app = express();
app.disable('x-powered-by');
// Behind a reverse proxy on the same host or network: trust its X-Forwarded-Proto/Host (https → Secure cookies).
app.set('trust proxy', 'loopback, linklocal, uniquelocal');

app.use((req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const path = req.path;
    log[path.startsWith('/assets/') || path.startsWith('/v1/') ? 'debug' : 'info']({ method: req.method, path, status: res.statusCode, ms: Math.round(ms) }, 'request');
  });
  next();
});

// Defence in depth on top of SameSite=Lax: a state-changing request must come from our own pages.
app.use((req, res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
  const origin = req.get('origin');
  if (origin && origin !== 'null') {
    let host = '';
    try {
      host = new URL(origin).host;
    } catch {
      host = '';
    }
    if (host !== req.get('x-forwarded-host') && host !== req.get('host')) {
      res.status(403).json({ message: 'cross-site request refused' });
      return;
    }
  }
  next();
});

app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' });
});

app.use((req, res, next) => {
  if (!entry.isContentRequest(req.method, req.originalUrl)) return next();
  contentProxy(req, res).catch(next);
});

if (vite) {
  app.use(vite.middlewares);
} else {
  app.use('/assets', express.static(join(here, 'build', 'client', 'assets'), { immutable: true, maxAge: '1y' }));
  app.use(express.static(join(here, 'build', 'client'), { maxAge: '1h' }));
}
app.all('*', createRequestHandler({ build: vite ? loadBuild : build, mode: vite ? 'development' : 'production', getLoadContext: () => context }));

const server = app.listen(config.port, config.host, () => {
  const address = server.address();
  const port = address && typeof address === 'object' ? address.port : config.port;
  log.info({ url: `http://localhost:${port}`, api: config.apiUrl }, 'service ready');
});
server.on('error', (err) => {
  log.fatal(`cannot listen on ${config.host}:${config.port}: ${err.message}`);
  process.exit(1);
});

let stopping = false;
/** @param {string} signal */
function stop(signal) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'stopping');
  void vite?.close();
  server.close(() => {
    log.info('stopped');
    process.exit(0);
  });
  server.closeIdleConnections();
  // Long downloads or a stuck client must not keep the process alive.
  setTimeout(() => {
    server.closeAllConnections();
    process.exit(0);
  }, 10_000).unref();
}
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
