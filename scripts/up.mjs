#!/usr/bin/env node
// `make up`: nats-server (unless TROVE_NATS_URL points elsewhere) and every service as its own
// process, embedded stores under ./data (TROVE_DATA_DIR), health-checked, URLs printed.
// A process that crashes is restarted with backoff (a supervisor); Ctrl-C or SIGTERM stops
// everything and leaves no process behind.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, createServer } from 'node:net';
import { resolve, join } from 'node:path';

// Built by `make build` (which `make up` runs first): the per-service NATS users and the secrets helper.
const require = createRequire(import.meta.url);
const {
  natsAuthorizationBlock,
  natsPasswordSecretName,
  natsServiceUsers,
} = require('../services/kit/dist/bus/nats-users.js');
const { loadOrCreateSecret } = require('../services/kit/dist/secrets/index.js');
const { tiedToParent } = require('../services/kit/dist/testing/reap-on-exit.js');

const SERVICES = ['auth', 'media', 'library', 'explore', 'jobs', 'worker', 'gateway'];
/** What a service (kit's announceReady) and the web server send over the IPC channel once serving: no log level silences it. */
const isReadyMessage = (m) => m !== null && typeof m === 'object' && m.trove === 'ready';
/** How long a process may take to be ready (TROVE_UP_READY_TIMEOUT_SECONDS, default 60). */
const readyTimeoutMs = readyTimeout(process.env.TROVE_UP_READY_TIMEOUT_SECONDS);

function readyTimeout(value) {
  if (value === undefined || value === '') return 60000;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    process.stdout.write(
      `!! TROVE_UP_READY_TIMEOUT_SECONDS must be a positive number of seconds, got ${JSON.stringify(value)}\n`,
    );
    process.exit(1);
  }
  return seconds * 1000;
}

const env = { ...process.env };
// Docusaurus would otherwise ask the registry for updates at every start.
env.NO_UPDATE_NOTIFIER ??= '1';
const dataDir = resolve(env.TROVE_DATA_DIR || './data');
env.TROVE_DATA_DIR = dataDir;
mkdirSync(dataDir, { recursive: true });
const gatewayPort = Number(env.TROVE_GATEWAY_PORT || 5001);

const children = [];
let stopping = false;

/** Exit code of a service whose configuration is wrong (see kit's config): restarting cannot help. */
const EXIT_CONFIG = 78;
/** Restart delays after a crash; a process that stayed up this long starts again from the first. */
const RESTART_BACKOFF_MS = [1000, 2000, 5000, 10000, 30000];
const STABLE_AFTER_MS = 60000;

function log(line) {
  process.stdout.write(`${line}\n`);
}

/** Prints a child's JSON log lines compactly: "12:00:01 gateway  info  service ready {...}". */
function relay(name, stream) {
  let buf = '';
  stream.on('data', (d) => {
    buf += d.toString();
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      // nats-server's own [INF] banner is noise here; its warnings and errors are not.
      if (line.trim() && !(name === 'nats' && line.includes('[INF]'))) log(format(name, line));
    }
  });
}

function format(name, line) {
  try {
    const { time, level, msg, service: _s, pid: _p, hostname: _h, ...rest } = JSON.parse(line);
    const extra = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : '';
    return `${String(time ?? '').slice(11, 19)} ${name.padEnd(8)} ${String(level ?? '').padEnd(5)} ${msg ?? ''}${extra}`;
  } catch {
    return `${''.padEnd(8)} ${name.padEnd(8)} ${line}`;
  }
}

/**
 * Starts a supervised process. When it exits unexpectedly it is started again after a backoff
 * (logged), except on a configuration error, which no restart can fix: then everything stops.
 */
function start(name, cmd, args, { detached = false, extraEnv = {}, ipc = false, beforeRestart } = {}) {
  const entry = { name, child: undefined, output: '', restarts: 0, startedAt: 0, ready: false };
  const launch = () => {
    // nats-server runs in its own process group so a terminal's Ctrl-C reaches only us and the
    // services: they drain their NATS work first, and we stop nats-server last.
    // The services' and the web server's 'ipc' channel carries their readiness message (see isReadyMessage).
    // Tied to this process: should it be killed outright (SIGKILL, no handler runs), they go with it.
    const child = spawn(...tiedToParent(cmd, args), {
      env: { ...env, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe', ...(ipc ? ['ipc'] : [])],
      detached,
    });
    entry.child = child;
    entry.exited = false;
    entry.ready = false;
    child.on('message', (m) => {
      if (isReadyMessage(m)) entry.ready = true;
    });
    entry.startedAt = Date.now();
    const collect = (d) => {
      entry.output = (entry.output + d.toString()).slice(-20000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    relay(name, child.stdout);
    relay(name, child.stderr);
    child.on('exit', (code, signal) => {
      entry.exited = true;
      if (stopping) return;
      if (code === EXIT_CONFIG) {
        log(
          `!! ${name} refused its configuration (exit ${EXIT_CONFIG}); fix the variable it names, then run make up again`,
        );
        void stopAll(1);
        return;
      }
      if (Date.now() - entry.startedAt >= STABLE_AFTER_MS) entry.restarts = 0;
      const delay = RESTART_BACKOFF_MS[Math.min(entry.restarts, RESTART_BACKOFF_MS.length - 1)];
      entry.restarts += 1;
      log(
        `!! ${name} exited unexpectedly (${signal ?? `code ${code}`}); restart ${entry.restarts} in ${delay / 1000}s`,
      );
      entry.restartTimer = setTimeout(async () => {
        await beforeRestart?.();
        if (!stopping) launch();
      }, delay);
    });
    child.on('error', (err) => {
      log(`!! could not start ${name}: ${err.message}`);
      if (!stopping) void stopAll(1);
    });
  };
  launch();
  children.push(entry);
  return entry;
}

async function stopAll(code = 0) {
  if (stopping) return;
  stopping = true;
  log('==> stopping');
  // Services first (they drain their NATS work), nats-server last.
  const services = children.filter((c) => c.name !== 'nats');
  await Promise.all(services.map((c) => stopChild(c)));
  await Promise.all(children.filter((c) => c.name === 'nats').map((c) => stopChild(c)));
  log('==> all stopped');
  process.exit(code);
}

function stopChild(c) {
  clearTimeout(c.restartTimer);
  return new Promise((res) => {
    if (c.exited || c.child.exitCode !== null) return res();
    const timer = setTimeout(() => c.child.kill('SIGKILL'), 15000);
    c.child.once('exit', () => {
      clearTimeout(timer);
      res();
    });
    c.child.kill('SIGTERM');
  });
}

process.on('exit', () => {
  // Last resort if we die abruptly: never leave a detached nats-server behind.
  for (const c of children) if (c.child.exitCode === null) c.child.kill('SIGKILL');
});
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));
process.on('SIGHUP', () => void stopAll(0));

function portOpen(port, host = '127.0.0.1') {
  return new Promise((res) => {
    const s = connect(port, host);
    s.once('connect', () => {
      s.destroy();
      res(true);
    });
    s.once('error', () => res(false));
  });
}

async function waitUntil(what, probe, timeoutMs = readyTimeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (stopping) return;
    if (Date.now() > deadline) {
      log(`!! timed out waiting for ${what}`);
      await stopAll(1);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * nats-server's configuration: loopback only, JetStream under the data dir, and one user per service
 * (named after it) whose publish/subscribe allow-lists come from the contracts (proto-events'
 * permissions): the worker, say, may take work and publish results, not call auth's user
 * administration. Each password is generated once into <data>/secrets/nats-<service>-password
 * (mode 0600) and reaches only its service, through TROVE_NATS_USER/PASSWORD, never a command line
 * where `ps` would show it. Returns the file and each service's variables.
 */
function writeNatsConfig(natsDir, port) {
  const credentials = {};
  const users = natsServiceUsers((service) => {
    const password = loadOrCreateSecret({ dataDir, name: natsPasswordSecretName(service) }).value;
    credentials[service] = { TROVE_NATS_USER: service, TROVE_NATS_PASSWORD: password };
    return password;
  });
  const file = join(natsDir, 'nats-server.conf');
  const conf = [
    `host: "127.0.0.1"`,
    `port: ${port}`,
    `jetstream { store_dir: ${JSON.stringify(natsDir)} }`,
    natsAuthorizationBlock(users),
    '',
  ].join('\n');
  writeFileSync(file, conf, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { file, credentials };
}

/**
 * Whether a process could listen on this port now, tried the way the service binds it (the metrics
 * server on every interface). A connect probe misses a port held by an outgoing connection (any port in the
 * ephemeral range can be), which still makes the service's listen fail with EADDRINUSE.
 */
function portBindable(port, host = '0.0.0.0') {
  return new Promise((res) => {
    const srv = createServer();
    srv.once('error', () => res(false));
    srv.listen(port, host, () => srv.close(() => res(true)));
  });
}

/**
 * A Prometheus port per process: TROVE_METRICS_BASE_PORT (default 9101) upwards, skipping ports
 * already taken on this machine. `next` hands out another one later, when a port chosen here was
 * taken before its process came to listen on it (see start's beforeRestart).
 */
async function metricsPortAllocator(names) {
  let port = Number(env.TROVE_METRICS_BASE_PORT || 9101);
  const next = async () => {
    while (!(await portBindable(port))) port += 1;
    return port++;
  };
  const ports = {};
  for (const name of names) ports[name] = await next();
  return { ports, next };
}

/** start's beforeRestart for a process with a metrics port: a port taken meanwhile is replaced. */
function keepMetricsPortFree(name, extraEnv, allocator) {
  return async () => {
    const port = Number(extraEnv.TROVE_METRICS_PORT);
    if (await portBindable(port)) return;
    extraEnv.TROVE_METRICS_PORT = String(await allocator.next());
    log(`!! ${name}'s metrics port ${port} was taken meanwhile: it serves metrics on ${extraEnv.TROVE_METRICS_PORT}`);
  };
}

/**
 * Whether no user account exists yet (the gateway's public GET /v1/setup). A busy machine can make
 * the auth service answer late (503): asked again a few times; still unknown: false.
 */
async function needsSetup() {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const r = await fetch(`http://127.0.0.1:${gatewayPort}/v1/setup`);
      if (r.ok) return (await r.json()).needsSetup === true;
      await r.body?.cancel();
    } catch {
      // not answering: try again
    }
    await new Promise((res) => setTimeout(res, 500));
  }
  return false;
}

/** Each service's NATS user and password when we run nats-server (else the shell's TROVE_NATS_* apply to all). */
let natsCredentials = {};

async function main() {
  log(`==> data directory: ${dataDir}`);
  if (!env.TROVE_NATS_URL) {
    const natsPort = Number(env.TROVE_NATS_PORT || 4222);
    if (await portOpen(natsPort)) {
      log(
        `!! port ${natsPort} is already in use. Stop what runs there, or set TROVE_NATS_PORT, or point TROVE_NATS_URL at a running nats-server.`,
      );
      process.exit(1);
    }
    const natsDir = join(dataDir, 'nats');
    mkdirSync(natsDir, { recursive: true });
    const nats = writeNatsConfig(natsDir, natsPort);
    natsCredentials = nats.credentials;
    start('nats', env.TROVE_NATS_SERVER_BIN || 'nats-server', ['-c', nats.file], { detached: true });
    env.TROVE_NATS_URL = `nats://127.0.0.1:${natsPort}`;
    await waitUntil('nats-server', () => portOpen(natsPort), 15000);
    log(
      `==> nats-server on ${env.TROVE_NATS_URL} (JetStream store ${natsDir}; one user per service, passwords in ${join(dataDir, 'secrets', natsPasswordSecretName('<service>'))})`,
    );
  } else {
    log(`==> using NATS at ${env.TROVE_NATS_URL}`);
  }

  if (!(await portBindable(gatewayPort, env.TROVE_GATEWAY_HOST || '0.0.0.0'))) {
    log(`!! port ${gatewayPort} is already in use: set TROVE_GATEWAY_PORT to another port.`);
    await stopAll(1);
  }

  const metrics = await metricsPortAllocator([...SERVICES, 'web']);
  // Each process's own variables, one object per process: a restart reads it again (its metrics port may change).
  const childEnv = Object.fromEntries(
    [...SERVICES, 'web'].map((name) => [
      name,
      { ...natsCredentials[name], TROVE_METRICS_PORT: String(metrics.ports[name]) },
    ]),
  );
  const entries = SERVICES.map((name) =>
    start(name, process.execPath, [join('services', name, 'dist', 'main.js')], {
      extraEnv: childEnv[name],
      ipc: true,
      beforeRestart: keepMetricsPortFree(name, childEnv[name], metrics),
    }),
  );
  for (const e of entries) {
    await waitUntil(`${e.name} to be ready`, () => e.ready);
  }
  await waitUntil('the gateway to be ready', async () => {
    try {
      const r = await fetch(`http://127.0.0.1:${gatewayPort}/health/ready`);
      return r.ok;
    } catch {
      return false;
    }
  });
  // The web app (built by `make build`): the browser's way in; it calls the gateway.
  const webPort = Number(env.TROVE_WEB_PORT || 3000);
  if (!(await portBindable(webPort, env.TROVE_WEB_HOST || '0.0.0.0'))) {
    log(`!! port ${webPort} is already in use: set TROVE_WEB_PORT to another port.`);
    await stopAll(1);
  }
  env.TROVE_WEB_PORT = String(webPort);
  env.TROVE_API_URL = env.TROVE_API_URL || `http://127.0.0.1:${gatewayPort}`;
  const web = start('web', process.execPath, [join('web', 'server.mjs')], {
    extraEnv: childEnv.web,
    ipc: true,
    beforeRestart: keepMetricsPortFree('web', childEnv.web, metrics),
  });
  await waitUntil('the web app to be ready', () => web.ready);
  // The docs site (built by `make docs`, which `make up` runs first).
  const docsPort = Number(env.TROVE_DOCS_PORT || 3001);
  let docsUrl;
  if (existsSync(join('docs', 'build', 'index.html'))) {
    start('docs', process.execPath, [
      join('node_modules', '@docusaurus', 'core', 'bin', 'docusaurus.mjs'),
      'serve',
      'docs',
      '--port',
      String(docsPort),
      '--host',
      '127.0.0.1',
      '--no-open',
    ]);
    await waitUntil('the docs site', () => portOpen(docsPort), 30000);
    docsUrl = `http://localhost:${docsPort}`;
  }
  log('');
  log('Trove is up:');
  log(
    `  web app    http://localhost:${webPort}        (log in; the administrator makes accounts: see README "First user")`,
  );
  log(`  API        http://localhost:${gatewayPort}        (try: curl http://localhost:${gatewayPort}/version)`);
  log(
    docsUrl
      ? `  docs       ${docsUrl}        (API reference: ${docsUrl}/api/)`
      : '  docs       not built: run `make docs`, or use `make up`, which builds them',
  );
  log(`  NATS       ${env.TROVE_NATS_URL}`);
  for (const [name, { TROVE_METRICS_PORT: port }] of Object.entries(childEnv))
    log(`  metrics    ${name.padEnd(8)} http://127.0.0.1:${port}/metrics`);
  log(`  data       ${dataDir}`);
  if (!env.TROVE_ADMIN_PASSWORD) {
    log(
      `  admin      user "${env.TROVE_ADMIN_USERNAME || 'admin'}", password in ${join(dataDir, 'secrets', 'admin-password')} (generated on first run, mode 0600)`,
    );
  } else {
    log(`  admin      user "${env.TROVE_ADMIN_USERNAME || 'admin'}", password from TROVE_ADMIN_PASSWORD`);
  }
  if (await needsSetup()) {
    log('');
    log(
      `First run: open http://localhost:${webPort}/setup to create the first account (with the admin password above).`,
    );
  }
  log('Press Ctrl-C to stop everything.');
}

main().catch((err) => {
  log(`!! ${err.stack ?? err}`);
  void stopAll(1);
});
