#!/usr/bin/env node
// @ts-check
/**
 * The Trove web server: serves the built Remix app (web/build, from `npm run build -w web`), its
 * static assets, and the media bytes behind the signed content URLs (streamed from the gateway).
 * Configuration comes from TROVE_* variables (see web/README.md); a bad one stops it with exit 78,
 * like the services. Logs `service ready` when it listens (and tells a parent with an IPC channel, as
 * `make up` is); SIGTERM/SIGINT stop it cleanly.
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

const vite = dev
  ? await (await import('vite')).createServer({ root: here, server: { middlewareMode: true } })
  : undefined;
/** @returns {Promise<import('@remix-run/node').ServerBuild>} */
const loadBuild = async () =>
  vite
    ? /** @type {import('@remix-run/node').ServerBuild} */ (await vite.ssrLoadModule('virtual:remix/server-build'))
    : import(pathToFileURL(buildFile).href);
const build = await loadBuild();
/** What entry.server.tsx exports besides Remix's own. */
const entry = /** @type {typeof import('./app/entry.server')} */ (/** @type {unknown} */ (build.entry.module));
const { log } = entry;

/** Secrets generated just now (name and path), to log once the logger has its level. */
const generatedSecrets = /** @type {{ name: string, path: string }[]} */ ([]);
/**
 * A secret whose variable is unset (the session key, the proxy secret): generated once under the
 * data dir, like the services' secrets; the gateway reads the same `proxy-secret` file.
 * @type {import('./app/lib/config.server').GeneratedSecret}
 */
function generatedSecret(name) {
  const dataDir = resolve(process.env.TROVE_DATA_DIR || './data');
  const secret = loadOrCreateSecret({ dataDir, name });
  if (secret.generated && secret.path) generatedSecrets.push({ name, path: secret.path });
  return secret.value;
}

// A bad variable stops the server here with a message naming it (exit code 78), like the services.
const config = entry.webConfigOrExit(process.env, generatedSecret);
log.level = config.logLevel;
for (const { name, path } of generatedSecrets) log.info({ path }, `generated the ${name}`);

const context = entry.createWebContext(config);
const contentProxy = entry.createContentProxy(config.apiUrl);

const app = express();
app.disable('x-powered-by');
// Behind a reverse proxy listed in TROVE_TRUSTED_PROXIES: believe its X-Forwarded-For/-Proto/-Host (https → Secure cookies).
app.set('trust proxy', config.trustedProxies.length ? config.trustedProxies : false);
/** @type {(address: string, hop: number) => boolean} */
const fromTrustedProxy = app.get('trust proxy fn');

// The CSP (with a nonce per answer) and HSTS over HTTPS; not under `--dev`, whose Vite client injects scripts of its own.
if (!vite)
  app.use(
    entry.securityHeaders({
      mapTileUrl: config.mapTileUrl,
      hstsMaxAgeSeconds: config.hstsMaxAgeSeconds,
      isSecure: (req) => /** @type {import('express').Request} */ (req).secure,
    }),
  );
app.use((req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    const seconds = entry.secondsSince(started);
    const ms = seconds * 1000;
    const path = req.path;
    entry.httpRequestDuration.observe(
      { method: req.method, route: entry.routeLabel(path), status: String(res.statusCode) },
      seconds,
    );
    log[path.startsWith('/assets/') || path.startsWith('/v1/') ? 'debug' : 'info'](
      { method: req.method, path, status: res.statusCode, ms: Math.round(ms) },
      'request',
    );
  });
  next();
});

// Defence in depth on top of SameSite=Lax: a state-changing request must come from our own pages.
app.use((req, res, next) => {
  const forwardedHost = fromTrustedProxy(req.socket.remoteAddress ?? '', 0)
    ? req.get('x-forwarded-host')?.split(',')[0].trim()
    : undefined;
  if (
    entry.mayChangeState(req.method, req.get('origin'), {
      publicOrigin: config.publicOrigin,
      host: forwardedHost || req.get('host'),
    })
  )
    return next();
  res.status(403).json({ message: 'cross-site request refused' });
});

// Bodies are bounded from their headers before anything reads them (413); the streamed upload relay is exempt.
app.use(entry.bodyLimit(config.bodyLimitBytes));

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
app.all(
  '*',
  createRequestHandler({
    build: vite ? loadBuild : build,
    mode: vite ? 'development' : 'production',
    getLoadContext: (req, res) => entry.requestContext(context, req.ip, entry.cspNonceOf(res)),
  }),
);

// Prometheus text on its own port, like the services' (TROVE_METRICS_PORT; make up assigns one).
const metrics =
  config.metricsPort === undefined
    ? undefined
    : await entry.startMetricsServer({ port: config.metricsPort, service: 'web' });
if (metrics) log.info({ metrics: `http://127.0.0.1:${metrics.port}/metrics` }, 'metrics served');

const server = app.listen(config.port, config.host, () => {
  const address = server.address();
  const port = address && typeof address === 'object' ? address.port : config.port;
  log.info({ url: `http://localhost:${port}`, api: config.apiUrl }, 'service ready');
  // `make up` learns it over the IPC channel (like the services' announceReady in the kit), whatever the log level.
  if (process.send && process.connected) process.send({ trove: 'ready' }, undefined, {}, () => undefined);
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
  void metrics?.close();
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
