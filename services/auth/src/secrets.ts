import { ACCESS_TOKEN } from '@trove/proto-events';
import { loadOrCreateSecret } from '@trove/kit';
import type { Logger } from '@trove/kit';

/**
 * The access-token signing secret: TROVE_JWT_SECRET, else the one generated under the data dir.
 * The gateway reads it the same way, so with a shared data dir (`make up`) both agree; in a
 * cluster set TROVE_JWT_SECRET for both. Too short, from either source: a ConfigError (exit 78).
 */
export function jwtSecret(opts: { dataDir: string; fromConfig?: string; log: Logger }): string {
  const secret = loadOrCreateSecret({
    dataDir: opts.dataDir,
    name: ACCESS_TOKEN.secretName,
    fromConfig: opts.fromConfig,
    minLength: ACCESS_TOKEN.minSecretLength,
    variable: 'TROVE_JWT_SECRET',
  });
  if (secret.generated) opts.log.info({ path: secret.path }, 'generated a JWT signing secret');
  return secret.value;
}
