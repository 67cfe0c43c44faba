/**
 * `trove`: the command line of a Trove library. Exit status: 0 when everything went, 1 when some file failed (run it
 * again: it picks up where it stopped), 2 when it could not start (usage, configuration, a login that failed).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { TroveApi } from './api';
import { loadConfig } from './config';
import { BarReporter, JsonReporter, PlainReporter } from './report';
import type { ExportSummary, Reporter } from './report';
import type * as Export from './export/export';
import type * as ExportImport from './export/import';
import type * as ExportLibrary from './export/library';
import type * as Login from './login';
import type * as Takeout from './takeout/import';
import { upload } from './upload';
import type { UploadOptions, UploadSummary } from './upload';

const version = (): string => {
  try {
    return (JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    return '0.0.0';
  }
};

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new InvalidArgumentError('a whole number from 1 to 64');
  return n;
}

/** Exits with the status above; a failure to start says why on stderr, without a stack. */
async function run(action: () => Promise<number>): Promise<void> {
  try {
    process.exitCode = await action();
  } catch (err) {
    process.stderr.write(`trove: ${describe(err)}\n`);
    process.exitCode = 2;
  }
}

/** An error as one line: fetch's bare `fetch failed` says what the network said. */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  if (err.message === 'fetch failed' && cause instanceof Error) return `cannot reach the server: ${cause.message}`;
  return err.message;
}

interface SendOptions {
  concurrency: number;
  dryRun?: boolean;
  json?: boolean;
}

const reporterFor = (json?: boolean): Reporter =>
  json ? new JsonReporter() : process.stderr.isTTY ? new BarReporter() : new PlainReporter();

/** An export's frame, as an upload's below; exit 1 when an item failed. */
async function exporting(
  opts: SendOptions,
  work: (library: ExportLibrary.LibraryApi, reporter: Reporter, server: string) => Promise<ExportSummary>,
): Promise<number> {
  const config = await loadConfig();
  const reporter = reporterFor(opts.json);
  const retry = {
    onRetry: (err: unknown, attempt: number, waitMs: number) =>
      reporter.note(`retrying in ${(waitMs / 1000).toFixed(1)} s (try ${attempt + 1}): ${describe(err)}`),
  };
  const api = new TroveApi(config.server, { apiKey: config.apiKey }, retry, opts.concurrency);
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see lazily below
    const { LibraryApi } = require('./export/library') as typeof ExportLibrary;
    const summary = await work(new LibraryApi(api, retry), reporter, config.server);
    reporter.finish(summary);
    return summary.failed ? 1 : 0;
  } finally {
    api.close();
  }
}

/** An upload's frame: the configuration, the reporter, the client and the summary line; exit 1 when something failed. */
async function sending(
  opts: SendOptions,
  work: (api: TroveApi, reporter: Reporter, options: UploadOptions) => Promise<UploadSummary>,
): Promise<number> {
  const config = await loadConfig();
  const reporter = reporterFor(opts.json);
  const api = new TroveApi(
    config.server,
    { apiKey: config.apiKey },
    {
      onRetry: (err, attempt, waitMs) =>
        reporter.note(`retrying in ${(waitMs / 1000).toFixed(1)} s (try ${attempt + 1}): ${describe(err)}`),
    },
    opts.concurrency,
  );
  try {
    const summary = await work(api, reporter, { concurrency: opts.concurrency, dryRun: opts.dryRun });
    if (summary.new !== undefined) reporter.note(`dry run: ${summary.new} would be uploaded`);
    reporter.finish(summary);
    return summary.failed || summary.laterErrors ? 1 : 0;
  } finally {
    api.close();
  }
}

// Lazily: the login, Takeout and export modules (zip reading, sidecars, readline) are loaded by their commands only, so that
// `trove upload`'s start (a share of a small upload's time) does not pay for them.
export function program(): Command {
  const cli = new Command('trove')
    .description('Bring photos and videos into a Trove library from the command line, and take them out again.')
    .version(version())
    .showHelpAfterError()
    // `trove import DIR` has options of its own and subcommands (`import takeout`) with the same names: an option
    // belongs to the command it follows.
    .enablePositionalOptions();

  cli
    .command('login')
    .description(
      'Ask for your username and password once, make an API key named after this machine and keep it in ~/.config/trove/config.json (TROVE_SERVER and TROVE_API_KEY override it).',
    )
    .requiredOption('--server <url>', 'the Trove server, e.g. https://photos.example.org')
    .action((opts: { server: string }) =>
      run(async () => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- see lazily below
        const { askCredentials, login } = require('./login') as typeof Login;
        const credentials = await askCredentials({ input: process.stdin, output: process.stderr });
        const { file, keyName } = await login(opts.server, credentials);
        process.stdout.write(`logged in: API key "${keyName}" kept in ${file}\n`);
        return 0;
      }),
    );

  cli
    .command('upload')
    .description(
      'Upload photos and videos (files, or folders walked through), skipping hidden files and other types and what the library already has. Ends with "N uploaded, N skipped, N failed"; run again after an interruption to finish.',
    )
    .argument('<path...>', 'files or folders')
    .addOption(
      new Option('--album <name>', 'add every file to this album (made if missing)').conflicts('albumPerFolder'),
    )
    .option('--album-per-folder', 'add each file to an album named after the folder holding it')
    .option('--concurrency <n>', 'files uploaded at a time', positiveInt, 4)
    .option('--dry-run', 'walk, hash and ask the server, but send nothing')
    .option('--json', 'one JSON object per line instead of text')
    .action((paths: string[], opts: SendOptions & { album?: string; albumPerFolder?: boolean }) =>
      run(() =>
        sending(opts, (api, reporter, options) =>
          upload(paths, api, reporter, { ...options, album: opts.album, albumPerFolder: opts.albumPerFolder }),
        ),
      ),
    );

  cli
    .command('export')
    .description(
      'Export your library into DIR: each original in DIR/YYYY/MM/ (the month it was taken) with a sidecar FILE.trove.json beside it (date, position, description, favourite, hidden, albums, people), DIR/albums.json (albums: name, description, items, cover) and DIR/trove-export.json. Items in the trash are not exported; a Live Photo\'s motion part lies beside its still. Run again to bring DIR up to date: only what changed is fetched. Ends with "N exported, N unchanged, N failed".',
    )
    .argument('<dir>', 'the folder to export into (made if missing)')
    .option('--concurrency <n>', 'files downloaded at a time', positiveInt, 4)
    .option('--json', 'one JSON object per line instead of text')
    .action((dir: string, opts: SendOptions) =>
      run(() =>
        exporting(opts, (library, reporter, server) => {
          // eslint-disable-next-line @typescript-eslint/no-require-imports -- see lazily below
          const { exportLibrary } = require('./export/export') as typeof Export;
          return exportLibrary(path.resolve(dir), library, reporter, { concurrency: opts.concurrency, server });
        }),
      ),
    );

  const imports = cli
    .command('import')
    .description(
      'Bring a trove export (a folder made by trove export, with its trove-export.json) into your library: uploads its originals (what the library has already is skipped), then sets each one\'s favourite, hidden, description, date and position from its sidecar and fills the albums of albums.json (made when missing). People\'s names are not set (the API names people, not faces in a given photo). Ends with "N uploaded, N skipped, N failed"; run again to finish. `trove import takeout` brings in a Google Takeout.',
    )
    .argument('[dir]', 'the folder trove export wrote')
    .option('--concurrency <n>', 'files uploaded at a time', positiveInt, 4)
    .option('--dry-run', 'read, hash and ask the server, but send nothing')
    .option('--json', 'one JSON object per line instead of text')
    .action((dir: string | undefined, opts: SendOptions) =>
      run(async () => {
        if (!dir) {
          imports.help({ error: true });
        }
        return sending(opts, (api, reporter, options) => {
          // eslint-disable-next-line @typescript-eslint/no-require-imports -- see lazily below
          const { importExport } = require('./export/import') as typeof ExportImport;
          // eslint-disable-next-line @typescript-eslint/no-require-imports -- see lazily below
          const { LibraryApi } = require('./export/library') as typeof ExportLibrary;
          return importExport(path.resolve(dir!), api, new LibraryApi(api), reporter, options);
        });
      }),
    );
  imports
    .command('takeout')
    .description(
      'Import a Google Photos Takeout (all its .zip or .tgz parts, read in place, or the extracted folder; a .tgz is read through twice, never extracted): each file with its sidecar\'s description, favourite and archived (→ hidden); trashed photos left out; album folders become albums, "Photos from YYYY" folders do not. Ends with "N uploaded, N skipped, N failed"; run again to finish.',
    )
    .argument('<path...>', 'the Takeout .zip / .tgz / .tar.gz files (all parts, mixed if need be) or extracted folders')
    .option('--concurrency <n>', 'files uploaded at a time', positiveInt, 4)
    .option('--dry-run', 'read, hash and ask the server, but send nothing')
    .option('--json', 'one JSON object per line instead of text')
    .action((paths: string[], opts: SendOptions) =>
      run(() =>
        sending(opts, (api, reporter, options) => {
          // eslint-disable-next-line @typescript-eslint/no-require-imports -- see lazily below
          const { importTakeout } = require('./takeout/import') as typeof Takeout;
          return importTakeout(paths, api, reporter, options);
        }),
      ),
    );

  return cli;
}

export function main(argv: string[]): void {
  program()
    .parseAsync(argv)
    .catch((err: unknown) => {
      process.stderr.write(`trove: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 2;
    });
}
