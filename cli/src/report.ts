/**
 * What `trove upload` says as it goes: a progress bar on a terminal (files, bytes, rate, ETA; failures printed above
 * it), one plain line per file otherwise (a log, a pipe), or one JSON object per line with `--json`. The last line is
 * the summary in every case: `N uploaded, N skipped, N failed` (with `--json`, the same three numbers as an object).
 */
import type { MultiBar, SingleBar } from 'cli-progress';
import type * as CliProgress from 'cli-progress';

/** `new`: not in the library, and not sent (`--dry-run`). */
const foundLine = (files: number, bytes: number, leftOut: Record<string, number>): string =>
  `${files} files (${formatBytes(bytes)}); left out: ${Object.entries(leftOut)
    .map(([why, n]) => `${n} ${why}`)
    .join(', ')}`;

export type Outcome = 'uploaded' | 'skipped' | 'failed' | 'unsupported' | 'new' | 'exported' | 'unchanged';

export interface Summary {
  uploaded: number;
  skipped: number;
  failed: number;
}

/** `trove export`'s counts: `exported` (its original or sidecar written), `unchanged` (nothing to write). */
export interface ExportSummary {
  exported: number;
  unchanged: number;
  failed: number;
}

export interface Reporter {
  /** What the walk found: files to look at, and how many it left out, by why (`hidden: 3`). */
  found(files: number, bytes: number, leftOut: Record<string, number>): void;
  /** A file's bytes went out (negative: a failed try's bytes, to be sent again). */
  sent(bytes: number): void;
  /** A file is done; `size` counts towards the bytes done when it was not sent (skipped, failed). */
  done(file: string, outcome: Outcome, size: number, detail?: string): void;
  note(message: string): void;
  finish(summary: Summary | ExportSummary): void;
}

export const summaryLine = (s: Summary | ExportSummary): string =>
  'exported' in s
    ? `${s.exported} exported, ${s.unchanged} unchanged, ${s.failed} failed`
    : `${s.uploaded} uploaded, ${s.skipped} skipped, ${s.failed} failed`;

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'];
export function formatBytes(n: number): string {
  let i = 0;
  while (Math.abs(n) >= 1000 && i < UNITS.length - 1) {
    n /= 1000;
    i++;
  }
  return `${n.toFixed(i === 0 ? 0 : 1)} ${UNITS[i]}`;
}

type Write = (line: string) => void;

export class PlainReporter implements Reporter {
  constructor(
    private readonly out: Write = (l) => process.stdout.write(l + '\n'),
    private readonly err: Write = (l) => process.stderr.write(l + '\n'),
  ) {}
  found(files: number, bytes: number, leftOut: Record<string, number>): void {
    this.out(foundLine(files, bytes, leftOut));
  }
  sent(): void {}
  done(file: string, outcome: Outcome, _size: number, detail?: string): void {
    if (outcome === 'failed') this.err(`failed ${file}: ${detail ?? ''}`);
    else if (outcome === 'unsupported') this.out(`not a photo or video ${file}: ${detail ?? ''}`);
    else if (outcome === 'new') this.out(`would upload ${file}`);
    else this.out(`${outcome} ${file}`);
  }
  note(message: string): void {
    this.err(message);
  }
  finish(summary: Summary | ExportSummary): void {
    this.out(summaryLine(summary));
  }
}

export class JsonReporter implements Reporter {
  constructor(private readonly out: Write = (l) => process.stdout.write(l + '\n')) {}
  found(files: number, bytes: number, leftOut: Record<string, number>): void {
    this.out(JSON.stringify({ event: 'found', files, bytes, leftOut }));
  }
  sent(): void {}
  done(file: string, outcome: Outcome, _size: number, detail?: string): void {
    this.out(JSON.stringify({ event: 'file', path: file, outcome, ...(detail ? { detail } : {}) }));
  }
  note(message: string): void {
    this.out(JSON.stringify({ event: 'note', message }));
  }
  finish(summary: Summary | ExportSummary): void {
    this.out(JSON.stringify({ event: 'summary', ...summary }));
  }
}

/** The progress bar: its value is bytes done (sent, or passed over), so the rate and ETA are in bytes. */
export class BarReporter implements Reporter {
  // cli-progress is loaded only on a terminal: a piped or logged run does not pay for it at start.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
  private readonly progress = require('cli-progress') as typeof CliProgress;
  private readonly multi: MultiBar = new this.progress.MultiBar(
    {
      format:
        ' {bar} {percentage}% | {files}/{totalFiles} files | {doneBytes}/{totalBytes} | {rate}/s | ETA {eta_formatted}',
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 50,
      fps: 5,
      barsize: 20,
    },
    this.progress.Presets.shades_classic,
  );
  private bar?: SingleBar;
  private files = 0;
  private done_ = 0;
  private bytes = 0;
  /** Bytes done: sent, or passed over (skipped, failed). */
  private value = 0;
  private started = Date.now();

  constructor(private readonly out: Write = (l) => process.stdout.write(l + '\n')) {
    // Ctrl-C: the bar stopped and the cursor shown again before the process ends (a re-run finishes the job).
    process.once('SIGINT', () => {
      this.multi.update();
      this.multi.stop();
      process.stderr.write('interrupted: run the same command again to finish\n');
      process.exit(130);
    });
  }

  private payload() {
    const seconds = Math.max(0.001, (Date.now() - this.started) / 1000);
    return {
      files: this.done_,
      totalFiles: this.files,
      doneBytes: formatBytes(this.value),
      totalBytes: formatBytes(this.bytes),
      rate: formatBytes(this.value / seconds),
    };
  }

  found(files: number, bytes: number, leftOut: Record<string, number>): void {
    this.multi.log(foundLine(files, bytes, leftOut) + '\n');
    this.files = files;
    this.bytes = bytes;
    this.started = Date.now();
    this.bar = this.multi.create(Math.max(1, bytes), 0, this.payload());
  }
  sent(bytes: number): void {
    this.value += bytes;
    this.bar?.update(this.value, this.payload());
  }
  done(file: string, outcome: Outcome, size: number, detail?: string): void {
    this.done_++;
    // Sent bytes were counted as they went (an upload's or a download's).
    if (outcome !== 'uploaded' && outcome !== 'exported') this.value += size;
    if (outcome === 'failed') this.multi.log(`failed ${file}: ${detail ?? ''}\n`);
    if (outcome === 'unsupported') this.multi.log(`not a photo or video ${file}: ${detail ?? ''}\n`);
    this.bar?.update(this.value, this.payload());
  }
  note(message: string): void {
    this.multi.log(message + '\n');
  }
  finish(summary: Summary | ExportSummary): void {
    this.bar?.update(this.value, this.payload());
    // The bar writes what was logged only when it redraws: once more, so that the last lines are not lost.
    this.multi.update();
    this.multi.stop();
    this.out(summaryLine(summary));
  }
}
