import { randomBytes } from 'node:crypto';
import { mkdirSync, openSync, readFileSync, writeSync, closeSync, fsyncSync, chmodSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError } from '../config';

/** Where generated secrets live: `<dataDir>/secrets/<name>`, mode 0600. */
export function secretPath(dataDir: string, name: string): string {
  return join(dataDir, 'secrets', name);
}

export interface SecretOptions {
  dataDir: string;
  name: string;
  fromConfig?: string;
  bytes?: number;
  /** Shortest acceptable value, wherever it comes from; `variable` names the setting in the refusal. */
  minLength?: number;
  variable?: string;
}

export interface Secret {
  value: string;
  path?: string;
  generated: boolean;
}

/**
 * The value of a secret from config when given, else the one kept under the data dir, else a new
 * strong random one written there (mode 0600). Creation uses O_EXCL, so services sharing a data dir
 * (e.g. `make up`) race safely: one writes, the others read the same value. Never a constant.
 * A value shorter than `minLength` (from config or from the file) throws a ConfigError: the
 * service refuses to start (exit 78) rather than sign with a guessable key.
 */
export function loadOrCreateSecret(opts: SecretOptions): Secret {
  const secret = readOrCreate(opts);
  if (opts.minLength !== undefined && secret.value.length < opts.minLength) {
    const source = secret.path ? `the secret in ${secret.path}` : (opts.variable ?? `the configured ${opts.name}`);
    const fix = secret.path
      ? ` (remove the file to have a strong one generated${opts.variable ? `, or set ${opts.variable}` : ''})`
      : '';
    throw new ConfigError([
      `${source} must be at least ${opts.minLength} characters, it has ${secret.value.length}${fix}`,
    ]);
  }
  return secret;
}

function readOrCreate(opts: SecretOptions): Secret {
  if (opts.fromConfig) return { value: opts.fromConfig, generated: false };
  const file = secretPath(opts.dataDir, opts.name);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  try {
    const fd = openSync(file, 'wx', 0o600);
    try {
      // URL-safe text, so it can be typed, pasted and put in env files as is.
      const value = randomBytes(opts.bytes ?? 32).toString('base64url');
      writeSync(fd, `${value}\n`);
      fsyncSync(fd);
      return { value, path: file, generated: true };
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  chmodSync(file, 0o600);
  const value = readWhenWritten(file);
  return { value, path: file, generated: false };
}

/** A racing reader may open the file between its creation and the write: wait briefly for content. */
function readWhenWritten(file: string): string {
  for (let i = 0; i < 100; i++) {
    const v = readFileSync(file, 'utf8').trim();
    if (v) return v;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  }
  throw new Error(`secret file ${file} is empty`);
}
