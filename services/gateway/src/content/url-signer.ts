import { createHmac, timingSafeEqual } from 'node:crypto';

/** Shortest signing secret accepted (TROVE_URL_SIGNING_SECRET or its generated file). */
export const MIN_SECRET_LENGTH = 32;

export type ContentVariant = 'original' | 'preview' | 'thumbnail';

export interface ContentUrlSignerOptions {
  secret: string;
  /** How long a URL stays valid, at least. */
  ttlSeconds: number;
  /** Clock, for tests. */
  now?: () => number;
}

/**
 * Short-lived signed content URLs, so an <img> or <video> tag (or a shared-album visitor) loads
 * bytes without an Authorization header. The signature covers the path and the expiry; expiry is
 * rounded up to a bucket so the same item gets the same URL for a while and browsers can cache it.
 */
export class ContentUrlSigner {
  private readonly now: () => number;

  constructor(private readonly opts: ContentUrlSignerOptions) {
    if (opts.secret.length < MIN_SECRET_LENGTH)
      throw new Error(`content URL signing secret must be at least ${MIN_SECRET_LENGTH} characters`);
    this.now = opts.now ?? (() => Date.now());
  }

  /** Path of an item's content call: `/v1/mediaItems/<id>/<variant>`. */
  static path(mediaItemId: string, variant: ContentVariant): string {
    return `/v1/mediaItems/${mediaItemId}/${variant}`;
  }

  /** Path of a face's thumbnail: `/v1/explore/faces/<id>/thumbnail`. */
  static facePath(faceId: string): string {
    return `/v1/explore/faces/${faceId}/thumbnail`;
  }

  /**
   * The signed URL of an item's content call. With `share` (a shared album's id) the URL carries
   * that id, covered by the signature: the gateway then checks at every serve that the album still
   * shows the item, so such a URL stops opening the moment it no longer does.
   */
  sign(mediaItemId: string, variant: ContentVariant, share?: string): string {
    return this.signPath(ContentUrlSigner.path(mediaItemId, variant), share);
  }

  /** `<path>?exp=<unix seconds>[&share=<album id>]&sig=<hmac>`, valid for at least ttlSeconds and at most twice that. */
  signPath(path: string, share?: string): string {
    const ttl = this.opts.ttlSeconds;
    const nowS = Math.floor(this.now() / 1000);
    const exp = (Math.floor(nowS / ttl) + 2) * ttl;
    const shareParam = share === undefined ? '' : `&share=${encodeURIComponent(share)}`;
    return `${path}?exp=${exp}${shareParam}&sig=${this.mac(path, exp, share)}`;
  }

  /** True when `sig` is this server's signature of `path`, `exp` (not passed) and `share` (the same one, or none for none). */
  verify(path: string, exp: string | undefined, sig: string | undefined, share?: string): boolean {
    if (!exp || !sig || !/^\d{1,12}$/.test(exp)) return false;
    const expS = Number(exp);
    if (expS * 1000 <= this.now()) return false;
    const expected = Buffer.from(this.mac(path, expS, share));
    const given = Buffer.from(sig);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /** A path holds no newline, so a signature with a share claim never equals one without. */
  private mac(path: string, exp: number, share?: string): string {
    const claim = share === undefined ? '' : `\nshare=${share}`;
    return createHmac('sha256', this.opts.secret).update(`${path}\n${exp}${claim}`).digest('base64url');
  }
}
