/**
 * The web server's configuration, from `TROVE_*` variables (documented in web/README.md), read with
 * the kit's typed variables like every Trove service: a bad value stops the server with a message
 * naming the variable (exit code 78).
 */
import { configOrExit, int, list, loadConfig, logLevel, proxyList, str, url } from '@trove/kit/config';
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
  /** TROVE_PROXY_SECRET, else generated under the data dir: proves to the gateway that a login's browser address comes from here. */
  proxySecret: string;
  /** TROVE_TRUSTED_PROXIES: proxies whose X-Forwarded-For/-Proto/-Host are believed (none when empty). */
  trustedProxies: string[];
  /** TROVE_WEB_PUBLIC_URL's origin: the only Origin a state-changing request may come from; unset → the request's own host. */
  publicOrigin?: string;
  /** TROVE_METRICS_PORT: where Prometheus text is served (`GET /metrics`); unset → no metrics server. */
  metricsPort?: number;
  /** TROVE_MAP_TILE_URL: a slippy-map tile template (`…/{z}/{x}/{y}.png`) for the place pages' map; unset → no map, no calls. */
  mapTileUrl?: string;
  /** TROVE_WEB_BODY_LIMIT_BYTES: the largest request body of every route but the streamed upload relay (413 beyond). */
  bodyLimitBytes: number;
  /** TROVE_WEB_HSTS_MAX_AGE_SECONDS: Strict-Transport-Security's max-age on answers served over HTTPS; 0 → no HSTS. */
  hstsMaxAgeSeconds: number;
}

/** The shortest session secret accepted (AES-256 keys are derived from it). */
/** An optional http(s) slippy-map tile template holding `{z}`, `{x}` and `{y}`. */
function tileTemplate(name: string): Var<string | undefined> {
  const plain = str(name, { required: false }) as Var<string | undefined>;
  return {
    name,
    read(env) {
      const t = plain.read(env);
      if (t === undefined) return undefined;
      if (!/^https?:\/\/[^/\s]+\/\S*$/.test(t) || !['{z}', '{x}', '{y}'].every((p) => t.includes(p))) {
        throw new Error(`${name} must be an http(s) URL holding {z}, {x} and {y}`);
      }
      return t;
    },
  };
}

export const MIN_SESSION_SECRET_LENGTH = 32;
/** The shortest proxy secret accepted (the gateway's rule too). */
export const MIN_PROXY_SECRET_LENGTH = 32;

/** Secrets generated under the data dir when their variable is unset (the gateway reads `proxy-secret` too). */
export type GeneratedSecretName = 'web-session-secret' | 'proxy-secret';

const webSpec = {
  port: int('TROVE_WEB_PORT', { default: 3000, min: 0, max: 65535 }),
  host: str('TROVE_WEB_HOST', { default: '0.0.0.0' }),
  apiUrl: url('TROVE_API_URL', { default: 'http://127.0.0.1:5001', protocols: ['http', 'https'] }),
  sessionSecrets: list('TROVE_SESSION_SECRET', { minLength: MIN_SESSION_SECRET_LENGTH }),
  sessionTtlDays: int('TROVE_SESSION_TTL_DAYS', { default: 30, min: 1, max: 365 }),
  trashRetentionDays: int('TROVE_TRASH_RETENTION_DAYS', { default: 30, min: 1, max: 3650 }),
  trashRetentionSeconds: int('TROVE_TRASH_RETENTION_SECONDS', { required: false, min: 1, max: 3650 * 86400 }) as Var<
    number | undefined
  >,
  logLevel: logLevel('TROVE_LOG_LEVEL', { default: 'info' }),
  proxySecret: str('TROVE_PROXY_SECRET', { required: false, minLength: MIN_PROXY_SECRET_LENGTH }) as Var<
    string | undefined
  >,
  trustedProxies: proxyList('TROVE_TRUSTED_PROXIES'),
  publicUrl: url('TROVE_WEB_PUBLIC_URL', { required: false, protocols: ['http', 'https'] }) as Var<string | undefined>,
  metricsPort: int('TROVE_METRICS_PORT', { required: false, min: 0, max: 65535 }) as Var<number | undefined>,
  mapTileUrl: tileTemplate('TROVE_MAP_TILE_URL'),
  bodyLimitBytes: int('TROVE_WEB_BODY_LIMIT_BYTES', { default: 64 * 1024, min: 1024, max: 16 * 1024 * 1024 }),
  hstsMaxAgeSeconds: int('TROVE_WEB_HSTS_MAX_AGE_SECONDS', { default: 180 * 86400, min: 0, max: 2 * 365 * 86400 }),
};

type Env = Record<string, string | undefined>;

/** Supplies a secret whose variable is unset (server.mjs: the kit's `loadOrCreateSecret` under TROVE_DATA_DIR). */
export type GeneratedSecret = (name: GeneratedSecretName) => string;

/**
 * Parses the environment; throws the kit's ConfigError naming every bad variable. `generatedSecret`
 * supplies the session and proxy secrets when their variables are unset; it is not called when
 * another variable is bad.
 */
export function parseWebConfig(env: Env, generatedSecret: GeneratedSecret): WebConfig {
  const { trashRetentionDays, trashRetentionSeconds, publicUrl, proxySecret, ...c } = loadConfig(webSpec, env);
  return {
    ...c,
    apiUrl: new URL(c.apiUrl).toString().replace(/\/+$/, ''),
    sessionSecrets: c.sessionSecrets.length ? c.sessionSecrets : [generatedSecret('web-session-secret')],
    proxySecret: proxySecret ?? generatedSecret('proxy-secret'),
    publicOrigin: publicUrl === undefined ? undefined : new URL(publicUrl).origin,
    // The media service's short test setting wins over days, as there.
    trashRetentionSeconds: trashRetentionSeconds ?? trashRetentionDays * 86400,
  };
}

/** For server.mjs: the configuration, or the process stops with a message naming each bad variable (exit code 78). */
export function webConfigOrExit(env: Env, generatedSecret: GeneratedSecret): WebConfig {
  return configOrExit('web', () => parseWebConfig(env, generatedSecret));
}
