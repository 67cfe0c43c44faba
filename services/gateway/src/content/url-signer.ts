import { createHmac, timingSafeEqual } from 'node:crypto';
import { ShareTokens } from '../security/share-tokens';

/** Shortest signing secret accepted (TROVE_URL_SIGNING_SECRET or its generated file). */
export const MIN_SECRET_LENGTH = 32;

export type ContentVariant = 'original' | 'preview' | 'thumbnail';

/**
 * How many signatures are remembered (~300 bytes each: ~15 MiB at most). A page of 100 items signs
 * 300 URLs, and the same URLs come back: the browser loads each thumbnail (verified here), a page is
 * listed again within the expiry bucket. An HMAC is ~2–3 µs of CPU; a page's 300 were ~0.7 ms of the
 * gateway's ~4.6 ms. The oldest are forgotten first.
 */
const SIGNATURES_KEPT = 50_000;

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
  /** The secret's bytes, made once (a page of 100 items signs 300 URLs; a string key is encoded again each time). */
  private readonly key: Buffer;
  /** Signatures already made, by the text they sign (path, expiry and claims: see `mac`). */
  private readonly signatures = new Map<string, string>();

  constructor(private readonly opts: ContentUrlSignerOptions) {
    if (opts.secret.length < MIN_SECRET_LENGTH)
      throw new Error(`content URL signing secret must be at least ${MIN_SECRET_LENGTH} characters`);
    this.now = opts.now ?? (() => Date.now());
    this.key = Buffer.from(opts.secret);
  }

  /** Unlock tokens of password-protected links, signed with this secret under their own prefix. */
  shareTokens(): ShareTokens {
    return new ShareTokens(this.opts.secret, undefined, this.now);
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
   * The signed URL of an item's content call, bound to whom it was made for (`scope`, covered by the
   * signature): a shared album (`share`: the gateway checks at every serve that the album still shows
   * the item) or the owner's session (`sid` and `uid`: it stops opening the moment that session or
   * that user is revoked). Either way the URL ends with its reason to exist, not only with its expiry.
   */
  sign(mediaItemId: string, variant: ContentVariant, scope: UrlScope): string {
    return this.signPath(ContentUrlSigner.path(mediaItemId, variant), scope);
  }

  /**
   * `<path>?exp=<unix seconds>&share=<album id>&sig=<hmac>` or `…&sid=<session id>&uid=<user id>&sig=…`,
   * valid for at least ttlSeconds and at most twice that.
   */
  signPath(path: string, scope: UrlScope): string {
    const ttl = this.opts.ttlSeconds;
    const nowS = Math.floor(this.now() / 1000);
    const exp = (Math.floor(nowS / ttl) + 2) * ttl;
    const claims = scopeQuery(scope);
    return `${path}?exp=${exp}&${claims}&sig=${this.mac(path, exp, claims)}`;
  }

  /** True when `sig` is this server's signature of `path`, `exp` (not passed) and exactly this scope. */
  verify(path: string, exp: string | undefined, sig: string | undefined, scope: UrlScope): boolean {
    if (!exp || !sig || !/^\d{1,12}$/.test(exp)) return false;
    const expS = Number(exp);
    if (expS * 1000 <= this.now()) return false;
    const expected = Buffer.from(this.mac(path, expS, scopeQuery(scope)));
    const given = Buffer.from(sig);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /**
   * A path holds no newline and the claims have distinct names, so a share URL's signature never
   * opens as a session URL, or the other way round. (URLs signed before sessions were bound had no
   * claim line at all: their signature matches neither, so they are refused.)
   */
  private mac(path: string, exp: number, claims: string): string {
    const signed = `${path}\n${exp}\n${claims}`;
    let sig = this.signatures.get(signed);
    if (sig === undefined) {
      sig = createHmac('sha256', this.key).update(signed).digest('base64url');
      if (this.signatures.size >= SIGNATURES_KEPT)
        this.signatures.delete(this.signatures.keys().next().value as string);
      this.signatures.set(signed, sig);
    }
    return sig;
  }
}

/**
 * Whom a signed URL was made for: a visitor of one shared album (`key`: the link's password key, once unlocked), or
 * one session (`sid`) of a user (`uid`); with `album`, that user's view of an album they own or are a member of, for
 * an item that is not theirs (checked against the album at every serve).
 */
export type UrlScope = { share: string; key?: string } | { sid: string; uid: string; album?: string };

/** The claim as query parameters (the verifier takes only UUIDs, so nothing here needs escaping). */
function scopeQuery(scope: UrlScope): string {
  // `sk`: the key of the link's password, for a visitor who unlocked it (absent on links without one).
  if ('share' in scope)
    return `share=${encodeURIComponent(scope.share)}${scope.key ? `&sk=${encodeURIComponent(scope.key)}` : ''}`;
  const session = `sid=${encodeURIComponent(scope.sid)}&uid=${encodeURIComponent(scope.uid)}`;
  return scope.album === undefined ? session : `${session}&album=${encodeURIComponent(scope.album)}`;
}
