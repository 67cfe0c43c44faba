import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { ScryptOptions } from 'node:crypto';

/**
 * A shared link's password as a slow hash: scrypt, with the auth service's parameters (N=2^15,
 * r=8, p=3, 32 MiB a hash). The stored form carries them, `scrypt$N$r$p$salt$hash` (base64), the
 * same shape as the accounts' passwords, so they can be raised later and old hashes keep verifying.
 */
const PARAMS = { N: 2 ** 15, r: 8, p: 3 };
const SALT_BYTES = 16;
const KEY_BYTES = 32;
// A corrupted stored hash must not exhaust memory.
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

function derive(password: string, salt: Buffer, N: number, r: number, p: number, length: number): Promise<Buffer> {
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password, salt, length, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashSharePassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, PARAMS.N, PARAMS.r, PARAMS.p, KEY_BYTES);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** True when `password` is the one `stored` was made from; false for anything malformed. */
export async function verifySharePassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const valid = (n: number, max: number) => Number.isInteger(n) && n >= 1 && n <= max;
  if (!valid(N, MAX_N) || !valid(r, MAX_R) || !valid(p, MAX_P) || (N & (N - 1)) !== 0) return false;
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  if (expected.length === 0) return false;
  const key = await derive(password, salt, N, r, p, expected.length);
  return timingSafeEqual(key, expected);
}
