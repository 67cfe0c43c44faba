import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a visitor stays unlocked after giving a link's password. */
export const SHARE_TOKEN_TTL_SECONDS = 12 * 60 * 60;

/**
 * The tokens `POST /v1/sharing/{id}/unlock` answers: `<exp>.<hmac>`, the HMAC over the album, the
 * key of its current password (a fresh one with every new password, held by the library) and the
 * expiry. So a token opens only that album, only until it expires, and only while the password it
 * was made under is still the link's. Nothing is stored; the secret is the content URLs' one,
 * under its own prefix (a URL's signed text starts with `/`), so neither ever passes for the other.
 */
export class ShareTokens {
  private readonly now: () => number;

  constructor(
    private readonly secret: string,
    private readonly ttlSeconds = SHARE_TOKEN_TTL_SECONDS,
    now?: () => number,
  ) {
    this.now = now ?? Date.now;
  }

  issue(albumId: string, shareKey: string): string {
    const exp = Math.floor(this.now() / 1000) + this.ttlSeconds;
    return `${exp}.${this.mac(albumId, shareKey, exp)}`;
  }

  /** True when `token` was issued for this album under this key and has not expired. */
  verify(token: string | undefined, albumId: string, shareKey: string): boolean {
    const match = token ? /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token) : null;
    if (!match) return false;
    const exp = Number(match[1]);
    if (exp * 1000 <= this.now()) return false;
    const expected = Buffer.from(this.mac(albumId, shareKey, exp));
    const given = Buffer.from(match[2]!);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  private mac(albumId: string, shareKey: string, exp: number): string {
    return createHmac('sha256', this.secret).update(`share-token\n${albumId}\n${shareKey}\n${exp}`).digest('base64url');
  }
}
