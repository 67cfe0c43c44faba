/**
 * The browser's session: one cookie holding the API tokens, sealed with AES-256-GCM (encrypted and
 * authenticated), httpOnly, SameSite=Lax, Secure over https. The browser can neither read nor forge
 * it, and never sees a JWT. Several secrets may be configured: the first seals, all unseal, so a
 * secret can be rotated without logging everyone out.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { createCookie } from '@remix-run/node';
import type { Cookie } from '@remix-run/node';

export const SESSION_COOKIE = 'trove_session';

export interface SessionData {
  accessToken: string;
  refreshToken: string;
  /** When the access token expires, epoch ms. */
  expiresAt: number;
  username: string;
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

function deriveKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'trove-web-session', 'aes-256-gcm session cookie', 32));
}

export class SessionCodec {
  private readonly keys: Buffer[];

  constructor(secrets: string[]) {
    if (secrets.length === 0) throw new Error('SessionCodec needs at least one secret');
    this.keys = secrets.map(deriveKey);
  }

  seal(data: SessionData): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys[0], iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(data), 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
  }

  /** The data, or null when the value was not sealed by one of our keys (tampered, old secret, garbage). */
  unseal(value: string): SessionData | null {
    if (!value.startsWith(`${VERSION}.`)) return null;
    const raw = Buffer.from(value.slice(VERSION.length + 1), 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES + 2) return null;
    const iv = raw.subarray(0, IV_BYTES);
    const tag = raw.subarray(raw.length - TAG_BYTES);
    const body = raw.subarray(IV_BYTES, raw.length - TAG_BYTES);
    for (const key of this.keys) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv);
        decipher.setAuthTag(tag);
        const json = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
        const data = JSON.parse(json) as Partial<SessionData>;
        if (
          typeof data.accessToken === 'string' &&
          typeof data.refreshToken === 'string' &&
          typeof data.expiresAt === 'number' &&
          typeof data.username === 'string'
        ) {
          return data as SessionData;
        }
        return null;
      } catch {
        // not this key
      }
    }
    return null;
  }
}

/** Reads and writes the session cookie of a request. */
export class SessionCookies {
  private readonly codec: SessionCodec;
  private readonly plain: Cookie;
  private readonly secure: Cookie;

  constructor(secrets: string[], ttlDays: number) {
    this.codec = new SessionCodec(secrets);
    const options = { httpOnly: true, sameSite: 'lax' as const, path: '/', maxAge: ttlDays * 24 * 3600 };
    this.plain = createCookie(SESSION_COOKIE, options);
    this.secure = createCookie(SESSION_COOKIE, { ...options, secure: true });
  }

  private cookieFor(request: Request): Cookie {
    return new URL(request.url).protocol === 'https:' ? this.secure : this.plain;
  }

  async read(request: Request): Promise<SessionData | null> {
    const value: unknown = await this.plain.parse(request.headers.get('Cookie'));
    return typeof value === 'string' ? this.codec.unseal(value) : null;
  }

  /** A Set-Cookie value that stores `data`. */
  commit(request: Request, data: SessionData): Promise<string> {
    return this.cookieFor(request).serialize(this.codec.seal(data));
  }

  /** A Set-Cookie value that removes the session. */
  destroy(request: Request): Promise<string> {
    return this.cookieFor(request).serialize('', { maxAge: 0, expires: new Date(0) });
  }
}
