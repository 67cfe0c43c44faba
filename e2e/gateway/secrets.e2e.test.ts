/**
 * The access-token secret is refused when short, wherever it comes from: the gateway and the
 * auth service, as compiled processes, stop with exit code 78 (a configuration refusal, which
 * `make up` does not restart) and a message saying what is wrong and how to fix it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort, serviceEntry, startProcess, startStack, tempDir } from '@trove/kit/testing';
import type { ServiceProcess, Stack, TempDir } from '@trove/kit/testing';

/** The exit code of a process, once it has exited. */
function exitOf(proc: ServiceProcess): Promise<number | null> {
  if (proc.child.exitCode !== null) return Promise.resolve(proc.child.exitCode);
  return new Promise((resolve) => proc.child.once('exit', (code) => resolve(code)));
}

describe('a short JWT secret (e2e)', () => {
  let stack: Stack;
  let data: TempDir;

  beforeAll(async () => {
    // Only nats-server: each test starts its own process.
    stack = await startStack({ services: [] });
    data = await tempDir('trove-short-secret-');
    await mkdir(join(data.path, 'secrets'), { recursive: true });
    await writeFile(join(data.path, 'secrets', 'jwt-secret'), 'only-twenty-chars-xx\n', { mode: 0o600 });
  });
  afterAll(async () => {
    await stack?.stop();
    await data?.remove();
  });

  const start = async (service: string, env: Record<string, string>) =>
    startProcess(service, serviceEntry(service), {
      ...stack.envFor(service),
      TROVE_GATEWAY_PORT: String(await freePort()),
      ...env,
    });

  it.each(['gateway', 'auth'])('%s refuses the one kept in the data dir: exit 78 naming the file', async (service) => {
    const proc = await start(service, { TROVE_DATA_DIR: data.path, TROVE_JWT_SECRET: '' });
    expect(await exitOf(proc)).toBe(78);
    expect(proc.output()).toContain(
      `the secret in ${join(data.path, 'secrets', 'jwt-secret')} must be at least 32 characters, it has 20`,
    );
    expect(proc.output()).toContain('or set TROVE_JWT_SECRET');
  });

  it.each(['gateway', 'auth'])('%s refuses a short TROVE_JWT_SECRET: exit 78 naming the variable', async (service) => {
    const proc = await start(service, { TROVE_JWT_SECRET: 'x'.repeat(31) });
    expect(await exitOf(proc)).toBe(78);
    expect(proc.output()).toContain('TROVE_JWT_SECRET must be at least 32 characters');
  });
});
