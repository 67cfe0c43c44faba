import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Children started by this process (services, nats-server) that have not exited yet. */
const running = new Set<ChildProcess>();
let hooked = false;

/**
 * SIGKILLs `child` when this process exits first: a script or test that throws before stopping its stack
 * (an uncaught error, `process.exit`) would otherwise leave the stack's processes running, holding ports and CPU
 * and skewing every later measurement. A SIGKILL of this process runs no hook: `tiedToParent` covers that case.
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

/** util-linux's setpriv (Debian: always installed) sets the parent-death signal of what it runs. */
const SETPRIV = '/usr/bin/setpriv';
const canTie = process.platform === 'linux' && existsSync(SETPRIV);

/**
 * The command line that runs `command` so that Linux SIGKILLs it when this process dies, however it dies (a test
 * runner or a bench killed with SIGKILL left its stack's services and nats-server running, holding ports and two
 * cores). setpriv sets the parent-death signal, which survives its exec of `command` (same pid). Elsewhere, or without
 * setpriv, the command as it is.
 */
export function tiedToParent(command: string, args: string[]): [string, string[]] {
  return canTie ? [SETPRIV, ['--pdeathsig', 'KILL', '--', command, ...args]] : [command, args];
}
