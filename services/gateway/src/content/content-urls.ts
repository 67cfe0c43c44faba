import type { Request } from 'express';
import { loadOrCreateSecret } from '@trove/kit';
import type { Logger } from '@trove/kit';
import { ContentUrlSigner, MIN_SECRET_LENGTH } from './url-signer';
import type { ContentVariant } from './url-signer';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a verified signed URL opens: its path, and with `share` only as a visitor of that shared album sees it. */
export interface SignedClaim {
  share?: string;
}

/** What a request says about where the client sent it (an express Request is one). */
export interface RequestOrigin {
  protocol: string;
  get(header: 'host'): string | undefined;
}

/**
 * The addresses answers give for an item's bytes: signed (so an <img> loads without a token) and
 * absolute, under the gateway's public origin.
 */
export class ContentUrls {
  constructor(
    private readonly signer: ContentUrlSigner,
    /** Origin of the URLs (TROVE_PUBLIC_URL, no trailing slash); default: the request's own. */
    private readonly publicUrl?: string,
  ) {}

  /** The content URL maker for answers to `req`; with `share`, URLs scoped to that shared album (checked when served). */
  forRequest(req: RequestOrigin): (mediaItemId: string, variant: ContentVariant, share?: string) => string {
    const base = this.publicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    return (mediaItemId, variant, share) => `${base}${this.signer.sign(mediaItemId, variant, share)}`;
  }

  /** The face thumbnail URL maker for answers to `req`. */
  facesForRequest(req: RequestOrigin): (faceId: string) => string {
    const base = this.publicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    return (faceId) => `${base}${this.signer.signPath(ContentUrlSigner.facePath(faceId))}`;
  }

  /**
   * Whether the `exp` and `sig` query parameters sign the request's path (and its `share` claim,
   * when there is one), for `authenticate`: false, or what the URL was signed for.
   */
  verify(req: Pick<Request, 'path' | 'query'>): false | SignedClaim {
    const { exp, sig, share } = req.query;
    if (typeof exp !== 'string' || typeof sig !== 'string') return false;
    if (share !== undefined && (typeof share !== 'string' || !UUID.test(share))) return false;
    if (!this.signer.verify(req.path, exp, sig, share)) return false;
    return share === undefined ? {} : { share };
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
