import { createHash, timingSafeEqual } from 'node:crypto';
import { ConfigError, loadOrCreateSecret } from '@trove/kit';
import type { Logger } from '@trove/kit';
import type { BasicCredentials } from './authorization-header';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * The administrator account of the user-administration calls. Compared through fixed-length
 * digests with timingSafeEqual, both halves always, so timing reveals neither length nor prefix.
 */
export class AdminCredentials {
  private readonly username: Buffer;
  private readonly password: Buffer;

  constructor(username: string, password: string) {
    this.username = digest(username);
    this.password = digest(password);
  }

  matches(given: BasicCredentials): boolean {
    const userOk = timingSafeEqual(digest(given.username), this.username);
    const passwordOk = timingSafeEqual(digest(given.password), this.password);
    return userOk && passwordOk;
  }
}

export interface AdminConfig {
  dataDir: string;
  adminUsername: string;
  adminPassword?: string;
}

/**
 * TROVE_ADMIN_USERNAME / TROVE_ADMIN_PASSWORD, else a strong random password generated once and
 * kept in `<dataDir>/secrets/admin-password` (0600), whose path is logged at every start. Throws
 * a ConfigError (the gateway does not start, exit 78) on an unusable username or a short password.
 */
export function loadAdminCredentials(config: AdminConfig, minPasswordLength: number, log: Logger): AdminCredentials {
  if (config.adminUsername.includes(':'))
    throw new ConfigError(['TROVE_ADMIN_USERNAME must not contain ":" (basic auth could not express it)']);
  const secret = loadOrCreateSecret({
    dataDir: config.dataDir,
    name: 'admin-password',
    fromConfig: config.adminPassword,
    minLength: minPasswordLength,
    variable: 'TROVE_ADMIN_PASSWORD',
  });
  if (secret.path) {
    const what = secret.generated ? 'generated the administrator password' : 'administrator password';
    log.warn(
      { username: config.adminUsername, passwordFile: secret.path },
      `${what}: it is in ${secret.path} (set TROVE_ADMIN_PASSWORD to choose one)`,
    );
  }
  return new AdminCredentials(config.adminUsername, secret.value);
}
