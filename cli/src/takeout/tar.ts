/**
 * A Takeout `.tgz` part, read with tar-stream in two streaming passes, so that memory and temporary disk stay small
 * whatever the archive's size (a gzip tar cannot be read at random, and nothing is extracted):
 *
 * 1. `listTar` reads the archive once: every entry's path and size, the small JSON files (sidecars, an album's
 *    `metadata.json`) kept in memory, and the SHA-256 of every photo and video, hashed as it passes. Hashing here, not
 *    while uploading, lets the upload ask the server which files it has before sending any: a re-run reads each part
 *    once and sends nothing, and an archive cut short is found before anything is sent.
 * 2. `TarReader` reads it again for the files the server lacks, in archive order, handing each over as it passes
 *    (the upload asks for them in that order). Asked for an entry it has passed (an upload tried again), it starts
 *    reading from the beginning again: slow, but rare and right.
 */
import { createReadStream } from 'node:fs';
import { PassThrough } from 'node:stream';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { extract as tarExtract } from 'tar-stream';
import type { Extract } from 'tar-stream';
import { isSupportedName } from '../extensions';
import { sha256Of } from '../hash';

/** A JSON file larger than this (no sidecar or album metadata is) is not kept: it reads as no metadata. */
export const JSON_CAP = 1 << 20;

/** One entry as tar-stream gives it: its header, and its bytes as a (streamx) readable stream. */
type Source = Extract extends AsyncIterable<infer S> ? S : never;

/** The entries of a gzip tar, in archive order. The caller reads or drains each before asking for the next. */
function readTar(file: string): AsyncIterableIterator<Source> & { stop(): void } {
  const input = createReadStream(file, { highWaterMark: 1 << 20 });
  const gunzip = createGunzip();
  const extract = tarExtract();
  const fail = (err: Error) => extract.destroy(err);
  input.on('error', fail);
  gunzip.on('error', fail);
  input.pipe(gunzip).pipe(extract as unknown as NodeJS.WritableStream);
  const entries = extract[Symbol.asyncIterator]() as AsyncIterableIterator<Source>;
  return Object.assign(entries, {
    stop: () => {
      input.destroy();
      gunzip.destroy();
      extract.destroy();
    },
  });
}

/** Reads an entry to its end, keeping nothing. */
async function drain(entry: Source): Promise<void> {
  for await (const piece of entry) void piece;
}

const entryPath = (name: string): string => name.replace(/^(\.\/)+/, '');
const isFile = (entry: Source): boolean => entry.header.type === 'file' || entry.header.type === 'contiguous-file';

/** Why a tar part could not be read, naming it. */
export function unreadable(file: string, err: unknown): Error {
  const why = err instanceof Error ? err.message : String(err);
  return new Error(`${file}: cannot read this .tgz (${why}): it is cut short or damaged; download that part again`);
}

export interface TarListing {
  /** Archive index (counting every entry), path and size of each file; `json` when kept, `sha256` for media. */
  files: Array<{ index: number; path: string; size: number; json?: Buffer; sha256?: string }>;
}

/** Pass 1 (see above). Rejects with `unreadable` when the archive is damaged or cut short. */
export async function listTar(file: string): Promise<TarListing> {
  const files: TarListing['files'] = [];
  const entries = readTar(file);
  let index = 0;
  try {
    for (;;) {
      const next = await entries.next();
      if (next.done) break;
      const entry = next.value;
      const at = index++;
      const path = entryPath(entry.header.name);
      const size = entry.header.size;
      if (!isFile(entry)) {
        await drain(entry);
        continue;
      }
      const name = path.slice(path.lastIndexOf('/') + 1);
      if (name.toLowerCase().endsWith('.json') && size <= JSON_CAP) {
        const chunks: Buffer[] = [];
        for await (const piece of entry) chunks.push(piece as Buffer);
        files.push({ index: at, path, size, json: Buffer.concat(chunks) });
      } else if (isSupportedName(name)) {
        files.push({ index: at, path, size, sha256: await sha256Of(entry) });
      } else {
        await drain(entry);
        files.push({ index: at, path, size });
      }
    }
  } catch (err) {
    throw unreadable(file, err);
  } finally {
    entries.stop();
  }
  return { files };
}

interface Wanted {
  index: number;
  path: string;
  size: number;
  resolve(stream: Readable): void;
  reject(err: Error): void;
}

/** Hands an entry's bytes to a Node stream; answers when the entry is read (or dropped by the reader: drained). */
function hand(entry: Source): { stream: Readable; read: Promise<void> } {
  const out = new PassThrough({ highWaterMark: 1 << 20 });
  let dropped = false;
  const read = new Promise<void>((resolve, reject) => {
    let ended = false;
    entry.on('data', (piece: unknown) => {
      if (!dropped && !out.write(piece as Buffer)) entry.pause();
    });
    out.on('drain', () => entry.resume());
    // Closed before the end (the server answered early, a try failed): the rest is read and dropped.
    out.on('close', () => {
      if (ended) return;
      dropped = true;
      entry.resume();
    });
    entry.on('end', () => {
      ended = true;
      out.end();
      resolve();
    });
    entry.on('error', (err: Error) => {
      out.destroy(err);
      reject(err);
    });
    entry.on('close', () => {
      if (!ended) reject(new Error('the archive ended in the middle of a file'));
    });
  });
  return { stream: out, read };
}

/** Pass 2 (see above): one tar part's entries, opened by index. */
export class TarReader {
  private entries?: ReturnType<typeof readTar>;
  /** Index of the entry `entries` gives next. */
  private position = 0;
  private wanted: Wanted[] = [];
  private busy = false;

  constructor(private readonly file: string) {}

  open(index: number, path: string, size: number): Promise<Readable> {
    return new Promise<Readable>((resolve, reject) => {
      this.wanted.push({ index, path, size, resolve, reject });
      void this.pump();
    });
  }

  close(): void {
    this.entries?.stop();
    this.entries = undefined;
    for (const w of this.wanted.splice(0)) w.reject(new Error(`${this.file}: closed`));
  }

  private restart(): void {
    this.entries?.stop();
    this.entries = readTar(this.file);
    this.position = 0;
  }

  private async pump(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      while (this.wanted.length) {
        this.wanted.sort((a, b) => a.index - b.index);
        const want = this.wanted[0];
        if (!this.entries || want.index < this.position) this.restart();
        try {
          const next = await this.entries!.next();
          if (next.done) {
            this.wanted.shift();
            want.reject(new Error(`${this.file}: ${want.path} is no longer in the archive (did it change?)`));
            this.entries!.stop();
            this.entries = undefined;
            continue;
          }
          const entry = next.value;
          const at = this.position++;
          if (at < want.index) {
            await drain(entry);
            continue;
          }
          this.wanted.shift();
          if (entryPath(entry.header.name) !== want.path || entry.header.size !== want.size) {
            want.reject(new Error(`${this.file}: ${want.path} is no longer where it was (did the archive change?)`));
            await drain(entry);
            continue;
          }
          const { stream, read } = hand(entry);
          want.resolve(stream);
          await read;
        } catch (err) {
          // Damaged past the first pass's reading (or changed since): what waits fails, a later open starts again.
          this.entries?.stop();
          this.entries = undefined;
          const error = unreadable(this.file, err);
          for (const w of this.wanted.splice(0)) w.reject(error);
        }
      }
    } finally {
      this.busy = false;
    }
  }
}
