/**
 * Access tokens an attacker could make: JWTs assembled by hand (any header, any payload, any
 * signature), so nothing a JWT library would refuse to produce is out of reach.
 */
import { createHmac, randomBytes } from 'node:crypto';

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

export interface Jwt {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signature: string;
}

/** A token's three parts, decoded (the signature stays as it is). */
export function decodeJwt(token: string): Jwt {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || signature === undefined) throw new Error('not a JWT');
  const json = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
  return { header: json(header), payload: json(payload), signature };
}

/** Header and payload as given, signed with HMAC-SHA `bits` under `key`. */
export function signJwt(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  key: string,
  bits: 256 | 384 | 512 = 256,
): string {
  const unsigned = `${b64url(header)}.${b64url(payload)}`;
  return `${unsigned}.${createHmac(`sha${bits}`, key).update(unsigned).digest('base64url')}`;
}

/** Header and payload as given, followed by `signature` verbatim (a copied one, or none at all). */
export function withSignature(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  signature: string,
): string {
  return `${b64url(header)}.${b64url(payload)}.${signature}`;
}

/** A key nobody else has. */
export const strangersKey = (): string => randomBytes(32).toString('base64url');
