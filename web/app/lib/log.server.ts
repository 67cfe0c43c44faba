/**
 * JSON log lines in the shape the Trove services print (`make up` shows them compactly):
 * {"level":"info","time":"…","service":"web","msg":"…", …}. TROVE_LOG_LEVEL filters them.
 */
const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
export type Level = (typeof LEVELS)[number];

function threshold(): number {
  const v = (process.env.TROVE_LOG_LEVEL ?? 'info').toLowerCase();
  if (v === 'silent') return Infinity;
  const i = LEVELS.indexOf(v as Level);
  return i < 0 ? 2 : i;
}

export function log(level: Level, msg: string, extra: Record<string, unknown> = {}): void {
  if (LEVELS.indexOf(level) < threshold()) return;
  const line = JSON.stringify({ level, time: new Date().toISOString(), service: 'web', pid: process.pid, msg, ...extra });
  (level === 'error' || level === 'fatal' ? process.stderr : process.stdout).write(`${line}\n`);
}
