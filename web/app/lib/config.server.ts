/**
 * The web server's configuration, from `TROVE_*` variables (documented in web/README.md), read with
 * the kit's typed variables like every Trove service: a bad value stops the server with a message
 * naming the variable (exit code 78).
 */
import { configOrExit, int, list, loadConfig, logLevel, str, url } from '@trove/kit/config';
import type { LogLevel, Var } from '@trove/kit/config';

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
  /** TROVE_LOG_LEVEL: the least severe log lines written. */
  logLevel: LogLevel;
}

/** The shortest session secret accepted (AES-256 keys are derived from it). */
export const MIN_SESSION_SECRET_LENGTH = 32;

const webSpec = {
  port: int('TROVE_WEB_PORT', { default: 3000, min: 0, max: 65535 }),
  host: str('TROVE_WEB_HOST', { default: '0.0.0.0' }),
  apiUrl: url('TROVE_API_URL', { default: 'http://127.0.0.1:5001', protocols: ['http', 'https'] }),
  sessionSecrets: list('TROVE_SESSION_SECRET', { minLength: MIN_SESSION_SECRET_LENGTH }),
  sessionTtlDays: int('TROVE_SESSION_TTL_DAYS', { default: 30, min: 1, max: 365 }),
  trashRetentionDays: int('TROVE_TRASH_RETENTION_DAYS', { default: 30, min: 1, max: 3650 }),
  trashRetentionSeconds: int('TROVE_TRASH_RETENTION_SECONDS', { required: false, min: 1, max: 3650 * 86400 }) as Var<number | undefined>,
  logLevel: logLevel('TROVE_LOG_LEVEL', { default: 'info' }),
};

type Env = Record<string, string | undefined>;

/**
 * Parses the environment; throws the kit's ConfigError naming every bad variable. `generatedSecret`
 * supplies the session secret when TROVE_SESSION_SECRET is unset (server.mjs passes the kit's
 * `loadOrCreateSecret` under TROVE_DATA_DIR); it is not called when another variable is bad.
 */
export function parseWebConfig(env: Env, generatedSecret: () => string): WebConfig {
  const { trashRetentionDays, trashRetentionSeconds, ...c } = loadConfig(webSpec, env);
  return {
    ...c,
    apiUrl: new URL(c.apiUrl).toString().replace(/\/+$/, ''),
    sessionSecrets: c.sessionSecrets.length ? c.sessionSecrets : [generatedSecret()],
    // The media service's short test setting wins over days, as there.
    trashRetentionSeconds: trashRetentionSeconds ?? trashRetentionDays * 86400,
  };
}

/** For server.mjs: the configuration, or the process stops with a message naming each bad variable (exit code 78). */
export function webConfigOrExit(env: Env, generatedSecret: () => string): WebConfig {
  return configOrExit('web', () => parseWebConfig(env, generatedSecret));
}
