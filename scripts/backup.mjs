#!/usr/bin/env node
// `make backup`: a consistent copy of the embedded data directory (TROVE_DATA_DIR, default ./data) while the
// stack runs — each service's SQLite store (VACUUM INTO), the secrets, the blobs (hard-linked against the previous
// backup when unchanged) and a manifest — into TROVE_BACKUP_DIR (default <data>/backups)/trove-<UTC time>/.
// Keeps the newest TROVE_BACKUP_KEEP (default 7). The backup's path is the last line printed.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const require = createRequire(import.meta.url);
// Built by `make build` (which `make backup` runs first).
const { backup } = require('../services/kit/dist/backup/index.js');

const env = process.env;
const dataDir = resolve(env.TROVE_DATA_DIR || './data');
const keepText = env.TROVE_BACKUP_KEEP || '7';
const keep = Number(keepText);
if (!Number.isInteger(keep) || keep < 1) {
  process.stderr.write(`TROVE_BACKUP_KEEP must be a whole number of at least 1, got ${JSON.stringify(keepText)}\n`);
  process.exit(2);
}
if (env.TROVE_MONGODB_URL || env.TROVE_S3_BUCKET) {
  process.stderr.write(
    'make backup copies the embedded stores only: with TROVE_MONGODB_URL use mongodump, with TROVE_S3_BUCKET the ' +
      "bucket's own versioning or replication (see the docs' Backup and restore page)\n",
  );
}
if (env.TROVE_EMBEDDED_STORE === 'nedb') {
  process.stderr.write(
    'make backup copies SQLite stores only: with TROVE_EMBEDDED_STORE=nedb, stop the services and copy data/docstore\n',
  );
}
const troveVersion = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
try {
  const started = Date.now();
  const result = await backup({ dataDir, backupDir: env.TROVE_BACKUP_DIR || undefined, keep, troveVersion });
  const { stores, blobs } = result.manifest;
  for (const s of stores) {
    const docs = Object.values(s.collections).reduce((a, b) => a + b, 0);
    process.stdout.write(
      `  ${s.file}: ${docs} documents, schema ${s.schemaVersion}, sha256 ${s.sha256.slice(0, 12)}…\n`,
    );
  }
  process.stdout.write(
    `  blobs: ${blobs.count} files, ${blobs.bytes} bytes (${blobs.linked} linked to the previous backup)\n`,
  );
  for (const r of result.removed) process.stdout.write(`  removed old backup ${r}\n`);
  process.stdout.write(`  took ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  process.stdout.write(`${result.path}\n`);
} catch (err) {
  process.stderr.write(`backup failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
