import { fromBuffer } from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';

export interface ZipEntry {
  name: string;
  /** 0: stored (what Trove's archives use), 8: deflated. */
  method: number;
  bytes: Buffer;
  /** The entry's time (a ZIP's is local time, to two seconds). */
  modified: Date;
}

/** Every entry of a ZIP held in memory (the tests' archives are small): name, compression method, bytes. */
export function unzip(zip: Buffer): Promise<ZipEntry[]> {
  return new Promise((resolve, reject) =>
    fromBuffer(zip, { lazyEntries: true }, (err: Error | null, file: ZipFile) => {
      if (err) return reject(err);
      const out: ZipEntry[] = [];
      file.on('error', reject);
      file.on('end', () => resolve(out));
      file.on('entry', (entry: Entry) =>
        file.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            out.push({
              name: entry.fileName,
              method: entry.compressionMethod,
              bytes: Buffer.concat(chunks),
              modified: entry.getLastModDate(),
            });
            file.readEntry();
          });
        }),
      );
      file.readEntry();
    }),
  );
}
