import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { BinaryLike, ScryptOptions } from 'node:crypto';
import { HashGate } from './hash-gate';
import type { HashGateOptions } from './hash-gate';

/**
 * Password hashing with scrypt (Node built-in, no native dependency). The stored form carries its
 * parameters, `scrypt$N$r$p$salt$hash` (base64), so they can be raised later: `needsRehash` tells
 * when a stored hash is weaker than the current parameters, and old hashes keep verifying.
 */
export interface ScryptParams {
  /** CPU/memory cost, a power of two. */
  N: number;
  r: number;
  p: number;
}

/**
 * OWASP's scrypt settings, of which these are one (N=2^15, r=8, p=3): as strong as N=2^17, r=8, p=1
 * (OWASP lists them as equivalent) but 32 MiB a hash instead of 128 MiB, which matters when many
 * logins arrive at once (see hash-gate.ts). Hashes made with other parameters — the earlier 2^15/p=1
 * or 2^17/p=1 — keep verifying and are rewritten with these at the user's next login (`needsRehash`).
 */
export const DEFAULT_PARAMS: ScryptParams = { N: 2 ** 15, r: 8, p: 3 };

const SALT_BYTES = 16;
const KEY_BYTES = 32;
// Bounds for parameters read back from the store: a corrupted row must not exhaust memory.
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

/** Defaults of TROVE_AUTH_HASH_CONCURRENCY, TROVE_AUTH_HASH_QUEUE and TROVE_AUTH_HASH_WAIT_MS (see config.ts). */
export const DEFAULT_GATE: HashGateOptions = { concurrency: 1, maxQueued: 16, maxWaitMs: 3000 };

// Every hash in the process goes through one gate: each costs 128 * N * r bytes (128 MiB by default).
let gate = new HashGate(DEFAULT_GATE);

/** Sets how many hashes run and wait at once (the service's config; tests). */
export function configureHashing(options: HashGateOptions): void {
  gate = new HashGate(options);
}

/** How many hashes run and wait now. */
export function hashingLoad(): { running: number; waiting: number } {
  return gate.load;
}

function derive(password: BinaryLike, salt: Buffer, params: ScryptParams, keyLength: number): Promise<Buffer> {
  // Node refuses unless 128 * N * r stays below maxmem (32 MiB by default, below our cost).
  const options: ScryptOptions = {
    N: params.N,
    r: params.r,
    p: params.p,
    maxmem: 256 * params.N * params.r + 1024 * 1024,
  };
  return gate.run(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(password, salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
      }),
  );
}

export async function hashPassword(password: string, params: ScryptParams = DEFAULT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params, KEY_BYTES);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

interface ParsedHash {
  params: ScryptParams;
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): ParsedHash | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = parts.slice(1, 4).map((s) => (/^\d{1,8}$/.test(s) ? Number(s) : NaN));
  const powerOfTwo = N > 1 && (N & (N - 1)) === 0;
  if (!powerOfTwo || N > MAX_N || !(r >= 1 && r <= MAX_R) || !(p >= 1 && p <= MAX_P)) return undefined;
  const salt = Buffer.from(parts[4], 'base64');
  const key = Buffer.from(parts[5], 'base64');
  if (salt.length < 8 || key.length < 16) return undefined;
  return { params: { N, r, p }, salt, key };
}

/** True when `password` matches; the comparison takes the same time wherever the bytes differ. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.params, parsed.key.length);
  return timingSafeEqual(key, parsed.key);
}

/**
 * True when the stored hash was made with other parameters than `params`: weaker ones, or ones that
 * cost more memory a check than the current equivalent setting.
 */
export function needsRehash(stored: string, params: ScryptParams = DEFAULT_PARAMS): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.params.N !== params.N || parsed.params.r !== params.r || parsed.params.p !== params.p;
}

let dummy: Promise<string> | undefined;

/** Computes the dummy hash ahead of the first login with an unknown username (which would otherwise pay for it). */
export function prepareDummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString('base64'));
  return dummy;
}

/**
 * Spends the same work as a real check and answers false: used for unknown usernames, so a wrong
 * username and a wrong password take about the same time.
 */
export async function verifyDummy(password: string): Promise<false> {
  await verifyPassword(password, await prepareDummyHash());
  return false;
}
