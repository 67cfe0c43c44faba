#!/usr/bin/env node
// `make restore BACKUP=<path>`: verifies a backup against its manifest (each store's sha256, the blob count) and
// copies it into an empty data directory (TROVE_DATA_DIR, default ./data); refuses a non-empty one. Then `make up`.
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const require = createRequire(import.meta.url);
const { restore } = require('../services/kit/dist/backup/index.js');

const backupPath = process.argv[2] || process.env.BACKUP;
if (!backupPath) {
  process.stderr.write('usage: make restore BACKUP=<path of a trove-<time> backup folder>\n');
  process.exit(2);
}
const dataDir = resolve(process.env.TROVE_DATA_DIR || './data');
try {
  const manifest = await restore({ backupPath, dataDir });
  const docs = manifest.stores.reduce((n, s) => n + Object.values(s.collections).reduce((a, b) => a + b, 0), 0);
  process.stdout.write(
    `restored ${manifest.stores.length} stores (${docs} documents), ${manifest.secrets.length} secrets and ` +
      `${manifest.blobs.count} blob files from Trove ${manifest.troveVersion} (${manifest.createdAt}) into ${dataDir}\n`,
  );
} catch (err) {
  process.stderr.write(`restore refused: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
