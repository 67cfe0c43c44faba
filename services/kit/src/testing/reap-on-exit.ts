import type { ChildProcess } from 'node:child_process';

/** Children started by this process (services, nats-server) that have not exited yet. */
const running = new Set<ChildProcess>();
let hooked = false;

/**
 * SIGKILLs `child` when this process exits first: a script or test that throws before stopping its stack
 * (an uncaught error, `process.exit`) would otherwise leave the stack's processes running, holding ports and CPU
 * and skewing every later measurement. (A SIGKILL of this process runs no hook: nothing can be done then.)
 */
export function reapOnExit(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (hooked) return;
  hooked = true;
  process.once('exit', () => {
    for (const c of running) c.kill('SIGKILL');
  });
}
