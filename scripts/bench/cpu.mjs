// CPU time of processes, from /proc (Linux): on a shared machine a process's CPU seconds vary far
// less than wall time, so they show where an upload's work goes even when the rates are noisy.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** User + system CPU seconds `pid` has used so far (0 once it is gone). */
export function cpuSeconds(pid) {
  try {
    // The command name (field 2) may hold spaces: count the fields after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The pid of this process's child named `command` (e.g. the stack's nats-server), if any. */
export function childPid(command) {
  const out = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  const line = out.split('\n').find((l) => l.trim().split(/\s+/)[1] === command);
  return line ? Number(line.trim().split(/\s+/)[0]) : undefined;
}

/** Runs `fn`, returning its result and the CPU seconds each named pid used meanwhile. */
export async function withCpu(pids, fn) {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]));
  const result = await fn();
  const cpu = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid) - before[name]]));
  return { result, cpu };
}

/** Runs `fn` in this process: its result, wall milliseconds and this process's CPU milliseconds (all threads). */
export async function measure(fn) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  return { value, wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}
