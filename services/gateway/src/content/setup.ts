import type { Request } from 'express';
import { loadOrCreateSecret } from '@trove/kit';
import type { Logger } from '@trove/kit';
import { ContentUrlSigner } from './signing';

/** What the media routes need besides the bus and the blob store. */
export interface MediaGatewayDeps {
  signer: ContentUrlSigner;
  /** Largest accepted upload, in bytes (TROVE_UPLOAD_MAX_BYTES). */
  uploadMaxBytes: number;
  /** Origin of the content URLs in answers (TROVE_PUBLIC_URL); default: the request's own. */
  publicUrl?: string;
}

export interface MediaGatewayConfig {
  dataDir: string;
  urlSigningSecret?: string;
  contentUrlTtlSeconds: number;
  uploadMaxBytes: number;
  publicUrl?: string;
}

/** The signing secret from TROVE_URL_SIGNING_SECRET, else the one generated under the data dir (shared by gateways on one data dir). */
export function mediaGatewayDeps(config: MediaGatewayConfig, log: Logger): MediaGatewayDeps {
  const secret = loadOrCreateSecret({ dataDir: config.dataDir, name: 'url-signing-secret', fromConfig: config.urlSigningSecret });
  if (secret.generated) log.info({ path: secret.path }, 'generated the content URL signing secret');
  return {
    signer: new ContentUrlSigner({ secret: secret.value, ttlSeconds: config.contentUrlTtlSeconds }),
    uploadMaxBytes: config.uploadMaxBytes,
    publicUrl: config.publicUrl?.replace(/\/+$/, ''),
  };
}

/** Checks the `exp` and `sig` query parameters against the request's path (for `authenticate`). */
export function signedUrlCheck(signer: ContentUrlSigner): (req: Request) => boolean {
  return (req) => {
    const { exp, sig } = req.query;
    return typeof exp === 'string' && typeof sig === 'string' && signer.verify(req.path, exp, sig);
  };
}

/** Where the gateway is reached from the client's side: the configured public URL, else the request's protocol and host. */
export function publicBaseUrl(req: Request, configured: string | undefined): string {
  return configured ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}
