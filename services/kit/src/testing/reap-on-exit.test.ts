import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from './wait';

// The built module: the parent below is a plain Node process, as a bench script or a test runner is.
const built = join(__dirname, '../../dist/testing/reap-on-exit.js');

/** Gone, or a zombie waiting for whoever inherited it to reap it: it runs no more. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** A parent that starts a long-lived child, prints its pid, then dies of an uncaught error: the child's pid. */
async function orphanedChild(reap: boolean): Promise<number> {
  const script = `
    const { spawn } = require('node:child_process');
    const { reapOnExit } = require(${JSON.stringify(built)});
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    if (${reap}) reapOnExit(child);
    console.log(child.pid);
    throw new Error('a bench script failing before it stops its stack');
  `;
  const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  parent.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => parent.once('exit', resolve));
  expect(code).toBe(1);
  return Number(out.trim());
}

const describeOnLinux = process.platform === 'linux' ? describe : describe.skip;

describeOnLinux('reapOnExit', () => {
  it('kills the children of a process that exits without stopping them', async () => {
    const pid = await orphanedChild(true);
    expect(pid).toBeGreaterThan(0);
    await waitFor(() => !running(pid), { timeoutMs: 10_000 });
  });

  it('is what kills them: without it the child outlives its parent', async () => {
    const pid = await orphanedChild(false);
    try {
      expect(running(pid)).toBe(true);
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });
});

/** A parent that starts a long-lived child (tied to it or not), prints its pid and waits: its pid and the child's. */
async function parentWithChild(tied: boolean): Promise<{ parent: ReturnType<typeof spawn>; childPid: number }> {
  const script = `
    const { spawn } = require('node:child_process');
    const { tiedToParent } = require(${JSON.stringify(built)});
    const line = [process.execPath, ['-e', 'setInterval(() => {}, 1000)']];
    const child = spawn(...(${tied} ? tiedToParent(...line) : line), { stdio: 'ignore' });
    console.log(child.pid);
    setInterval(() => {}, 1000);
  `;
  const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  parent.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  await waitFor(() => /\d+\n/.test(out), { timeoutMs: 10_000, what: 'the child pid' });
  const childPid = Number(out.trim());
  // Running its own command (setpriv has exec'd it), not setpriv any more.
  await waitFor(() => readFileSync(`/proc/${childPid}/cmdline`, 'utf8').includes('setInterval'), {
    timeoutMs: 10_000,
    what: 'the child to run its command',
  });
  return { parent, childPid };
}

describeOnLinux('tiedToParent', () => {
  it('a child tied to its parent dies with it, even of a SIGKILL (no exit hook runs then)', async () => {
    const { parent, childPid } = await parentWithChild(true);
    expect(running(childPid)).toBe(true);
    parent.kill('SIGKILL');
    await waitFor(() => !running(childPid), { timeoutMs: 10_000, what: 'the tied child to die' });
  });

  it('is what kills it: an untied child outlives its SIGKILLed parent', async () => {
    const { parent, childPid } = await parentWithChild(false);
    try {
      parent.kill('SIGKILL');
      await new Promise<void>((resolve) => parent.once('exit', () => resolve()));
      expect(running(childPid)).toBe(true);
    } finally {
      process.kill(childPid, 'SIGKILL');
    }
  });
});
