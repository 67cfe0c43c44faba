/**
 * Typed environment configuration, validated once at start. Every problem is collected so a
 * misconfigured pod reports all its bad variables at once, each by name.
 */
import { isIP } from 'node:net';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

export interface Var<T> {
  readonly name: string;
  read(env: Env): T;
}

interface Common<T> {
  default?: T;
  /** When false the value may be absent (then undefined). Defaults to true unless a default is given. */
  required?: boolean;
}

function raw(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function make<T>(name: string, opts: Common<T>, parse: (s: string) => T): Var<T> {
  return {
    name,
    read(env) {
      const s = raw(env, name);
      if (s === undefined) {
        if (opts.default !== undefined) return opts.default;
        if (opts.required === false) return undefined as T;
        throw new Error(`${name} is required`);
      }
      return parse(s);
    },
  };
}

export const str = (name: string, opts: Common<string> & { minLength?: number } = {}): Var<string> =>
  make(name, opts, (s) => {
    if (opts.minLength !== undefined && s.length < opts.minLength)
      throw new Error(`${name} must be at least ${opts.minLength} characters`);
    return s;
  });

export const optionalStr = (name: string): Var<string | undefined> =>
  make<string | undefined>(name, { required: false }, (s) => s);

export const int = (name: string, opts: Common<number> & { min?: number; max?: number } = {}): Var<number> =>
  make(name, opts, (s) => {
    if (!/^-?\d+$/.test(s)) throw new Error(`${name} must be an integer, got "${s}"`);
    const n = Number(s);
    if (opts.min !== undefined && n < opts.min) throw new Error(`${name} must be ≥ ${opts.min}, got ${n}`);
    if (opts.max !== undefined && n > opts.max) throw new Error(`${name} must be ≤ ${opts.max}, got ${n}`);
    return n;
  });

/** A non-negative decimal number (`0.3`, `.5`, `2`) within the bounds. */
export const decimal = (name: string, opts: Common<number> & { min?: number; max?: number } = {}): Var<number> =>
  make(name, opts, (s) => {
    const n = Number(s);
    const inRange = (opts.min === undefined || n >= opts.min) && (opts.max === undefined || n <= opts.max);
    if (!/^\d*\.?\d+$/.test(s) || !inRange)
      throw new Error(`${name} must be a number from ${opts.min ?? 0} to ${opts.max ?? 'any'}, got "${s}"`);
    return n;
  });

export const bool = (name: string, opts: Common<boolean> = {}): Var<boolean> =>
  make(name, opts, (s) => {
    if (/^(1|true|yes|on)$/i.test(s)) return true;
    if (/^(0|false|no|off)$/i.test(s)) return false;
    throw new Error(`${name} must be true or false, got "${s}"`);
  });

export const url = (name: string, opts: Common<string> & { protocols?: string[] } = {}): Var<string> =>
  make(name, opts, (s) => {
    let u: URL;
    try {
      u = new URL(s);
    } catch {
      throw new Error(`${name} must be a URL, got "${redactUrl(s)}"`);
    }
    if (opts.protocols && !opts.protocols.includes(u.protocol.replace(/:$/, ''))) {
      throw new Error(`${name} must use ${opts.protocols.join(' or ')}, got "${u.protocol}"`);
    }
    return s;
  });

export const optionalUrl = (name: string, protocols?: string[]): Var<string | undefined> =>
  url(name, { required: false, protocols }) as Var<string | undefined>;

export const oneOf = <T extends string>(name: string, values: readonly T[], opts: Common<T> = {}): Var<T> =>
  make(name, opts, (s) => {
    if (!values.includes(s as T)) throw new Error(`${name} must be one of ${values.join(', ')}, got "${s}"`);
    return s as T;
  });

/** A comma-separated list (blanks around and between items dropped); empty when unset. */
export const list = (name: string, opts: Common<string[]> & { minLength?: number } = {}): Var<string[]> =>
  make(name, { default: [], ...opts }, (s) => {
    const items = s
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
    const min = opts.minLength ?? 0;
    if (items.some((item) => item.length < min))
      throw new Error(`${name}: each value must be at least ${min} characters`);
    return items;
  });

/** Names proxy-addr (express's `trust proxy`) knows for whole address ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/** Proxies whose X-Forwarded-* headers to believe: addresses, CIDRs, `loopback`, `linklocal`, `uniquelocal`; none when unset. */
export const proxyList = (name: string): Var<string[]> =>
  make(name, { default: [] }, (s) => {
    const entries = s
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
    const bad = entries.find((e) => !isProxyEntry(e));
    if (bad !== undefined)
      throw new Error(`${name} must list addresses, CIDRs, loopback, linklocal or uniquelocal; got "${bad}"`);
    return entries;
  });

/** pino's levels: what TROVE_LOG_LEVEL may say. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A log level, in any case (`INFO` is `info`). */
export const logLevel = (name: string, opts: Common<LogLevel> = {}): Var<LogLevel> =>
  make(name, opts, (s) => {
    const level = s.toLowerCase() as LogLevel;
    if (!LOG_LEVELS.includes(level)) throw new Error(`${name} must be one of ${LOG_LEVELS.join(', ')}, got "${s}"`);
    return level;
  });

export type Spec = Record<string, Var<unknown> | Record<string, Var<unknown>>>;
export type ConfigOf<S> = {
  [K in keyof S]: S[K] extends Var<infer T> ? T : S[K] extends Record<string, Var<unknown>> ? ConfigOf<S[K]> : never;
};

/** Reads every variable in the spec; throws one ConfigError naming every bad or missing variable. */
export function loadConfig<S extends Spec>(spec: S, env: Env = process.env): ConfigOf<S> {
  const problems: string[] = [];
  const walk = (node: Spec): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(node)) {
      if (isVar(v)) {
        try {
          out[key] = v.read(env);
        } catch (err) {
          problems.push((err as Error).message);
        }
      } else {
        out[key] = walk(v as Spec);
      }
    }
    return out;
  };
  const result = walk(spec);
  if (problems.length) throw new ConfigError(problems);
  return result as ConfigOf<S>;
}

/** For entrypoints: a bad configuration stops the process with a message naming each variable. */
export function loadConfigOrExit<S extends Spec>(service: string, spec: S, env: Env = process.env): ConfigOf<S> {
  return configOrExit(service, () => loadConfig(spec, env));
}

/**
 * For entrypoints whose configuration is more than a spec (e.g. a secret generated when unset): runs
 * `read`, and a ConfigError it throws stops the process, like `loadConfigOrExit`, with exit code 78.
 */
export function configOrExit<T>(service: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${service}: ${err.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
}

function isVar(v: unknown): v is Var<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as Var<unknown>).read === 'function';
}

/** Hides credentials in a URL before it is printed. */
export function redactUrl(s: string): string {
  try {
    const u = new URL(s);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return s.replace(/\/\/[^@/]*@/, '//***@');
  }
}
