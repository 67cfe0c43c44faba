import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort } from './ports';
import { tempDir } from './temp';
import { waitFor } from './wait';

export interface NatsServerHandle {
  url: string;
  port: number;
  /** SIGKILL-free stop: SIGTERM, then remove the JetStream store. */
  stop(): Promise<void>;
}

/** The nats-server binary: TROVE_NATS_SERVER_BIN, else the one on PATH. */
export function natsServerBin(): string {
  return process.env.TROVE_NATS_SERVER_BIN || 'nats-server';
}

/** Starts a real `nats-server -js` on a free loopback port with its own temporary store. */
export async function startNatsServer(): Promise<NatsServerHandle> {
  const port = await freePort();
  const dir = await tempDir('trove-nats-');
  const child: ChildProcess = spawn(natsServerBin(), ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', join(dir.path, 'js')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('error', (err) => {
    stderr += `\n${err.message}`;
  });
  try {
    await waitFor(async () => child.exitCode === null && (await canConnect(port)), { timeoutMs: 10_000, what: `nats-server on port ${port}` });
  } catch (err) {
    child.kill('SIGKILL');
    await dir.remove();
    throw new Error(`nats-server did not start (is it installed? apt-get install nats-server): ${(err as Error).message}\n${stderr}`);
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
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
