/**
 * The chart's NATS configuration run by a real nats-server (the one `make test` installs): it reads the
 * credentials from its environment, as the StatefulSet gives them from the Secret, and refuses clients without
 * them; the services' settings from the rendered Deployment get in.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect, type ConnectionOptions } from 'nats';
import { freePort, natsServerBin, tempDir, waitFor, type TempDir } from '@trove/kit/testing';
import { at, containerOf, envOf, named, render, type K8sObject } from './manifests';

interface Server {
  url: string;
  stop(): Promise<void>;
}

/** nats-server with the chart's nats.conf (ports and store moved to a temporary place) and the StatefulSet's env. */
async function startChartNats(objects: K8sObject[], dir: TempDir): Promise<Server> {
  // A free port can be taken by another suite before nats-server binds it: a server that exits before it is
  // healthy is started again on new ports.
  for (let attempt = 1; ; attempt++) {
    const server = await startChartNatsOnce(objects, dir);
    if (server || attempt === 3)
      return (
        server ??
        Promise.reject(new Error('nats-server with the chart configuration exited 3 times before it was healthy'))
      );
  }
}

async function startChartNatsOnce(objects: K8sObject[], dir: TempDir): Promise<Server | undefined> {
  const [port, monitor] = [await freePort(), await freePort()];
  const conf = (at(named(objects, 'ConfigMap', 'trove-nats'), 'data') as Record<string, string>)['nats.conf']
    .replace('port: 4222', `port: ${port}\nhost: 127.0.0.1`)
    .replace('http_port: 8222', `http: "127.0.0.1:${monitor}"`)
    .replace('store_dir: /data', `store_dir: ${JSON.stringify(join(dir.path, 'js'))}`);
  const file = join(dir.path, 'nats.conf');
  writeFileSync(file, conf, { mode: 0o600 });
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(envOf(containerOf(named(objects, 'StatefulSet', 'trove-nats')))))
    env[name] = secretValue(objects, value);
  const child: ChildProcess = spawn(natsServerBin(), ['-c', file], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Healthy with JetStream (what the chart's readiness probe asks), or exited. The bound is generous: 10 s ran out
  // once on a loaded CI machine.
  const healthy = () =>
    fetch(`http://127.0.0.1:${monitor}/healthz?js-enabled-only=true`).then(
      (r) => r.ok,
      () => false,
    );
  await waitFor(async () => child.exitCode !== null || child.signalCode !== null || (await healthy()), {
    timeoutMs: 60_000,
    what: 'nats-server with the chart configuration',
  });
  if (child.exitCode !== null || child.signalCode !== null) return undefined;
  return {
    url: `nats://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** `secret:<name>/<key>` (from envOf) → the value in the rendered Secret; anything else as it is. */
function secretValue(objects: K8sObject[], value: string): string {
  const ref = /^secret:([^/]+)\/(.+)$/.exec(value);
  if (!ref) return value;
  const data = at(named(objects, 'Secret', ref[1]), 'data') as Record<string, string>;
  return Buffer.from(data[ref[2]], 'base64').toString();
}

/** What a Trove process's env gives the NATS client. */
function clientOptions(objects: K8sObject[], process: string): ConnectionOptions {
  const env = envOf(containerOf(named(objects, 'Deployment', `trove-${process}`)));
  return {
    user: env.TROVE_NATS_USER,
    pass: env.TROVE_NATS_PASSWORD && secretValue(objects, env.TROVE_NATS_PASSWORD),
    token: env.TROVE_NATS_TOKEN && secretValue(objects, env.TROVE_NATS_TOKEN),
  };
}

async function outcome(url: string, opts: ConnectionOptions): Promise<string> {
  try {
    const nc = await connect({ servers: url, reconnect: false, timeout: 5000, ...opts });
    await nc.close();
    return 'connected';
  } catch (err) {
    return String((err as { code?: string }).code ?? (err as Error).message);
  }
}

it('every NATS secret the chart makes starts with a letter (nats.conf parses a $VARIABLE\'s value: "12e5…" is a number)', () => {
  // Rendered many times: each render draws new random secrets.
  for (let i = 0; i < 5; i++) {
    const data = at(named(render({}), 'Secret', 'trove-secrets'), 'data') as Record<string, string>;
    const nats = Object.entries(data).filter(([key]) => key.startsWith('nats-'));
    expect(nats.length).toBeGreaterThan(5);
    for (const [key, value] of nats)
      expect({ key, first: Buffer.from(value, 'base64').toString()[0] }).toEqual({ key, first: 'n' });
  }
});

describe.each([
  ['password', {}],
  ['token', { 'nats.auth.mode': 'token' }],
])("the chart's nats-server (auth mode %s)", (_mode, set) => {
  const objects = render({ set });
  let dir: TempDir;
  let server: Server;

  beforeAll(async () => {
    dir = await tempDir('trove-chart-nats-');
    server = await startChartNats(objects, dir);
  });
  afterAll(async () => {
    await server?.stop();
    await dir?.remove();
  });

  it('lets in every Trove process with the credentials the chart gives it', async () => {
    for (const p of ['gateway', 'auth', 'media', 'library', 'explore', 'jobs', 'worker']) {
      expect({ p, outcome: await outcome(server.url, clientOptions(objects, p)) }).toEqual({ p, outcome: 'connected' });
    }
  });

  it('refuses a client without credentials or with wrong ones', async () => {
    expect(await outcome(server.url, {})).toBe('AUTHORIZATION_VIOLATION');
    expect(await outcome(server.url, { user: 'worker', pass: 'not-the-password' })).toBe('AUTHORIZATION_VIOLATION');
    expect(await outcome(server.url, { token: 'not-the-token' })).toBe('AUTHORIZATION_VIOLATION');
  });

  if (_mode === 'password') {
    it("holds the worker's user to its allow-lists: auth's user administration is refused, its results subject is not", async () => {
      const nc = await connect({
        servers: server.url,
        reconnect: false,
        timeout: 5000,
        inboxPrefix: '_INBOX.worker',
        ...clientOptions(objects, 'worker'),
      });
      try {
        await expect(
          nc.request('trove.v1.auth.users.list', new TextEncoder().encode('{}'), { timeout: 5000 }),
        ).rejects.toThrow(/permissions violation/i);
        // Allowed: nobody answers it here (no stream), which is a timeout or no responders, not a violation.
        await expect(
          nc.request('events.v1.media.processed', new TextEncoder().encode('{}'), { timeout: 2000 }),
        ).rejects.toThrow(/503|no responders|timeout/i);
      } finally {
        await nc.close();
      }
    });
  }
});
