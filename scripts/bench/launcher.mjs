// A small process that starts commands for the bench and times them (bench/trove.mjs).
//
// Why not start them from the bench itself: a process start forks the starting process, which marks every page of
// its memory copy-on-write, and the bench's client holds hundreds of MB (every file it uploads). Measured: its next
// 160 uploads took 42–45k page faults and twice the CPU (2.1–2.3 s instead of 1.1–1.2), so whichever side followed
// `trove upload` in a round was the slower one. Forked once, before anything is timed, this process has a small heap
// of its own to fork from.
import { execFile } from 'node:child_process';

process.on('message', ({ id, file, args, env }) => {
  const started = performance.now();
  execFile(file, args, { env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
    const seconds = (performance.now() - started) / 1000;
    process.send({ id, seconds, stdout, stderr, error: err ? String(err.message ?? err) : undefined });
  });
});
process.on('disconnect', () => process.exit(0));
