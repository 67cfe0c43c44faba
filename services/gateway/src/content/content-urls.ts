import type { Request } from 'express';
import { loadOrCreateSecret } from '@trove/kit';
import type { Logger } from '@trove/kit';
import { ContentUrlSigner, MIN_SECRET_LENGTH } from './url-signer';
import type { ContentVariant, UrlScope } from './url-signer';
import type { Principal } from '../security/authenticate';
import type { ShareTokens } from '../security/share-tokens';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);

/** What a verified signed URL opens: its path, for whom it was signed (a shared album's visitors, or one session of the owner). */
export type SignedClaim = UrlScope;

/** What a request says about where the client sent it, and who sent it (an express Request is one). */
export interface RequestOrigin {
  protocol: string;
  get(header: 'host'): string | undefined;
  /** Its response, whose `locals.auth` names the authenticated user and session. */
  res?: { locals: Record<string, unknown> };
}

/**
 * The owner's URLs are signed for the session (and user) of the request's bearer token. A request
 * without one (not a user call: never the case for answers holding owner URLs) gets URLs signed for
 * no session, which the gateway refuses: failing closed rather than handing out URLs nothing can revoke.
 */
function ownScope(req: RequestOrigin): { sid: string; uid: string } {
  const p = req.res?.locals.auth as Principal | undefined;
  return p?.kind === 'user' ? { sid: p.sessionId, uid: p.userId } : { sid: 'none', uid: 'none' };
}

/**
 * The addresses answers give for an item's bytes: signed (so an <img> loads without a token) and
 * absolute, under the gateway's public origin.
 */
export class ContentUrls {
  /** What unlocks a password-protected link (`X-Share-Token`), signed with the same secret. */
  readonly shareTokens: ShareTokens;

  constructor(
    private readonly signer: ContentUrlSigner,
    /** Origin of the URLs (TROVE_PUBLIC_URL, no trailing slash); default: the request's own. */
    private readonly publicUrl?: string,
  ) {
    this.shareTokens = signer.shareTokens();
  }

  /**
   * The content URL maker for answers to `req`; with `share`, URLs scoped to that shared album (with `key`, the
   * link's password key; checked when served); with `album`, the caller's URLs for another user's item in that album
   * (checked too).
   */
  forRequest(
    req: RequestOrigin,
  ): (mediaItemId: string, variant: ContentVariant, share?: string, key?: string | null, album?: string) => string {
    const base = this.publicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    const own = ownScope(req);
    return (mediaItemId, variant, share, key, album) => {
      const scope: UrlScope =
        share !== undefined ? { share, ...(key ? { key } : {}) } : album !== undefined ? { ...own, album } : own;
      return `${base}${this.signer.sign(mediaItemId, variant, scope)}`;
    };
  }

  /** The user whose session the request's own URLs are signed for ('none' without one). */
  static callerOf(req: RequestOrigin): string {
    return ownScope(req).uid;
  }

  /** The face thumbnail URL maker for answers to `req` (the owner's, bound to their session). */
  facesForRequest(req: RequestOrigin): (faceId: string) => string {
    const base = this.publicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    const own = ownScope(req);
    return (faceId) => `${base}${this.signer.signPath(ContentUrlSigner.facePath(faceId), own)}`;
  }

  /**
   * Whether the `exp` and `sig` query parameters sign the request's path and its one claim (`share`,
   * or `sid` with `uid`), for `authenticate`: false, or what the URL was signed for. A URL with no
   * claim (made before owner URLs were bound to sessions) or with both is refused.
   */
  verify(req: Pick<Request, 'path' | 'query'>): false | SignedClaim {
    const { exp, sig, share, sk, sid, uid, album } = req.query;
    if (typeof exp !== 'string' || typeof sig !== 'string') return false;
    let claim: SignedClaim;
    if (share !== undefined && sid === undefined && uid === undefined && album === undefined && isUuid(share)) {
      if (sk !== undefined && !isUuid(sk)) return false;
      claim = sk === undefined ? { share } : { share, key: sk };
    } else if (sk !== undefined) return false;
    else if (share === undefined && isUuid(sid) && isUuid(uid) && album === undefined) claim = { sid, uid };
    else if (share === undefined && isUuid(sid) && isUuid(uid) && isUuid(album)) claim = { sid, uid, album };
    else return false;
    return this.signer.verify(req.path, exp, sig, claim) && claim;
  }
}

export interface ContentUrlConfig {
  dataDir: string;
  urlSigningSecret?: string;
  contentUrlTtlSeconds: number;
  publicUrl?: string;
}

/** The signing secret from TROVE_URL_SIGNING_SECRET, else the one generated under the data dir (shared by gateways on one data dir). */
export function loadContentUrls(config: ContentUrlConfig, log: Logger): ContentUrls {
  const secret = loadOrCreateSecret({
    dataDir: config.dataDir,
    name: 'url-signing-secret',
    fromConfig: config.urlSigningSecret,
    minLength: MIN_SECRET_LENGTH,
    variable: 'TROVE_URL_SIGNING_SECRET',
  });
  if (secret.generated) log.info({ path: secret.path }, 'generated the content URL signing secret');
  return new ContentUrls(
    new ContentUrlSigner({ secret: secret.value, ttlSeconds: config.contentUrlTtlSeconds }),
    config.publicUrl?.replace(/\/+$/, ''),
  );
}
