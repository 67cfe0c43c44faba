import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { natsAuthorizationBlock } from '../bus/nats-users';
import type { NatsUser } from '../bus/nats-users';
import { freePort } from './ports';
import { tempDir } from './temp';
import { waitFor } from './wait';
import { reapOnExit, tiedToParent } from './reap-on-exit';

export interface NatsServerHandle {
  url: string;
  port: number;
  /** The users the server accepts (none: it accepts anyone). */
  users: NatsUser[];
  /** The permission violations the server logged so far (publish or subscribe refused to a user), one line each. */
  violations(): string[];
  /** SIGKILL-free stop: SIGTERM, then remove the JetStream store. */
  stop(): Promise<void>;
}

/** The nats-server binary: TROVE_NATS_SERVER_BIN, else the one on PATH. */
export function natsServerBin(): string {
  return process.env.TROVE_NATS_SERVER_BIN || 'nats-server';
}

export interface NatsServerOptions {
  /** Users with their passwords and permissions (see kit's natsServiceUsers); none: no authentication. */
  users?: NatsUser[];
}

/**
 * Starts a real `nats-server -js` on a free loopback port with its own temporary store, open to
 * anyone or, given `users`, only to them, each within its permissions.
 */
export async function startNatsServer(opts: NatsServerOptions = {}): Promise<NatsServerHandle> {
  const port = await freePort();
  const dir = await tempDir('trove-nats-');
  const users = opts.users ?? [];
  let args = ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', join(dir.path, 'js')];
  if (users.length) {
    const conf = join(dir.path, 'nats-server.conf');
    const lines = [
      `host: "127.0.0.1"`,
      `port: ${port}`,
      `jetstream { store_dir: ${JSON.stringify(join(dir.path, 'js'))} }`,
      natsAuthorizationBlock(users),
      '',
    ];
    await writeFile(conf, lines.join('\n'), { mode: 0o600 });
    args = ['-c', conf];
  }
  const child: ChildProcess = spawn(...tiedToParent(natsServerBin(), args), {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  reapOnExit(child);
  let stderr = '';
  let partial = '';
  const violations: string[] = [];
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (/Violation/.test(line)) violations.push(line);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('error', (err) => {
    stderr += `\n${err.message}`;
  });
  try {
    await waitFor(async () => child.exitCode === null && (await canConnect(port)), {
      timeoutMs: 10_000,
      what: `nats-server on port ${port}`,
    });
  } catch (err) {
    child.kill('SIGKILL');
    await dir.remove();
    throw new Error(
      `nats-server did not start (is it installed? apt-get install nats-server): ${(err as Error).message}\n${stderr}`,
    );
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    users,
    violations: () => [...violations],
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      await dir.remove();
    },
  };
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}
