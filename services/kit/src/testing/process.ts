import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { reapOnExit, tiedToParent } from './reap-on-exit';

export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr), for assertions and failure reports. */
  output(): string;
  /** Waits until the output contains `text`. */
  waitForOutput(text: string | RegExp, timeoutMs?: number): Promise<void>;
  /** SIGTERM and wait for exit (SIGKILL after a grace period). Resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL: a crash, for resilience tests. */
  kill(): Promise<void>;
}

/** Runs a service's compiled entrypoint as its own process, exactly as in its pod. */
export function startProcess(
  name: string,
  entry: string,
  env: Record<string, string>,
  args: string[] = [],
): ServiceProcess {
  const child = spawn(...tiedToParent(process.execPath, [entry, ...args]), {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  reapOnExit(child);
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (d: Buffer) => {
    out += d.toString();
    if (out.length > 2_000_000) out = out.slice(-1_000_000);
    listeners.forEach((l) => l());
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  return {
    name,
    child,
    output: () => out,
    waitForOutput(text, timeoutMs = 20_000) {
      const matches = () => (typeof text === 'string' ? out.includes(text) : text.test(out));
      if (matches()) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(
            new Error(`${name} did not print ${String(text)} within ${timeoutMs} ms. Output:\n${out.slice(-3000)}`),
          );
        }, timeoutMs);
        const check = () => {
          if (matches()) {
            clearTimeout(timer);
            listeners.delete(check);
            resolve();
          }
        };
        listeners.add(check);
        void exited.then((code) => {
          if (!matches()) {
            clearTimeout(timer);
            listeners.delete(check);
            reject(
              new Error(`${name} exited with ${code} before printing ${String(text)}. Output:\n${out.slice(-3000)}`),
            );
          }
        });
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}
