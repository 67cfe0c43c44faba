/**
 * The web server's configuration, from `TROVE_*` variables (documented in web/README.md). A bad value
 * stops the server with a message naming the variable, like every Trove service.
 */
export interface WebConfig {
  /** TROVE_WEB_PORT: where the web app listens. */
  port: number;
  /** TROVE_WEB_HOST: bind address. */
  host: string;
  /** TROVE_API_URL: the gateway, as the web server reaches it (no trailing slash). */
  apiUrl: string;
  /** TROVE_SESSION_SECRET (comma-separated: the first encrypts, all decrypt), else generated under the data dir. */
  sessionSecrets: string[];
  /** TROVE_SESSION_TTL_DAYS: how long the session cookie lives (the auth service ends the session itself at that age). */
  sessionTtlDays: number;
  /** TROVE_TRASH_RETENTION_SECONDS, else TROVE_TRASH_RETENTION_DAYS (the media service's variables): shown on the Trash page. */
  trashRetentionSeconds: number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

/** The shortest session secret accepted (AES-256 keys are derived from it). */
export const MIN_SESSION_SECRET_LENGTH = 32;

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, def: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return def;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

/**
 * Parses the environment. `generatedSecret` supplies the session secret when TROVE_SESSION_SECRET
 * is unset (server.mjs passes the kit's `loadOrCreateSecret` under TROVE_DATA_DIR).
 */
export function parseWebConfig(env: Env, generatedSecret: () => string): WebConfig {
  const apiRaw = (env.TROVE_API_URL || 'http://127.0.0.1:5001').trim();
  let api: URL;
  try {
    api = new URL(apiRaw);
  } catch {
    throw new ConfigError('TROVE_API_URL', `must be an http(s) URL, got "${apiRaw}"`);
  }
  if (api.protocol !== 'http:' && api.protocol !== 'https:') throw new ConfigError('TROVE_API_URL', `must be an http(s) URL, got "${apiRaw}"`);

  const secrets = (env.TROVE_SESSION_SECRET ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (secrets.length === 0) secrets.push(generatedSecret());
  for (const s of secrets) {
    if (s.length < MIN_SESSION_SECRET_LENGTH) throw new ConfigError('TROVE_SESSION_SECRET', `each secret must be at least ${MIN_SESSION_SECRET_LENGTH} characters`);
  }

  return {
    port: int(env, 'TROVE_WEB_PORT', 3000, 0, 65535),
    host: (env.TROVE_WEB_HOST || '0.0.0.0').trim(),
    apiUrl: api.toString().replace(/\/+$/, ''),
    sessionSecrets: secrets,
    sessionTtlDays: int(env, 'TROVE_SESSION_TTL_DAYS', 30, 1, 365),
    trashRetentionSeconds: env.TROVE_TRASH_RETENTION_SECONDS?.trim()
      ? int(env, 'TROVE_TRASH_RETENTION_SECONDS', 0, 1, 3650 * 86400)
      : int(env, 'TROVE_TRASH_RETENTION_DAYS', 30, 1, 3650) * 86400,
  };
}
