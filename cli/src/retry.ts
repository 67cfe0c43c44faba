/**
 * Retries of what may succeed when tried again: the network failing (connection refused or reset, a timeout, a
 * name that did not resolve this time), a server error (5xx, but not 501 or 507: storage full stays full), a
 * `408`, or `429`, whose `Retry-After` is honoured. Waits grow exponentially with jitter, up to a cap.
 */

/** An HTTP answer that was not the expected one. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** From `Retry-After`, when the answer had one. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENETDOWN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/** The error's code, or its cause's (fetch wraps a socket's error in `TypeError: fetch failed`). */
function codeOf(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

export function isTransient(err: unknown): boolean {
  if (err instanceof HttpError) {
    return err.status === 408 || err.status === 429 || (err.status >= 500 && err.status !== 501 && err.status !== 507);
  }
  const code = codeOf(err);
  return code !== undefined && NETWORK_CODES.has(code);
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export interface RetryOptions {
  /** Tries in all, the first included (default 6). */
  attempts?: number;
  /** The first wait; each next one doubles (default 500 ms). */
  baseMs?: number;
  /** No wait is longer, `Retry-After` included (default 60 s). */
  maxMs?: number;
  /** Told before each wait (the program prints it). */
  onRetry?: (err: unknown, attempt: number, waitMs: number) => void;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The wait before try `attempt + 1`: Retry-After when the server gave one, else exponential with full jitter. */
export function backoffMs(
  err: unknown,
  attempt: number,
  { baseMs = 500, maxMs = 60_000, random = Math.random }: RetryOptions = {},
): number {
  if (err instanceof HttpError && err.retryAfterMs !== undefined) return Math.min(err.retryAfterMs, maxMs);
  const ceiling = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export async function withRetry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 6;
  const sleep = options.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (attempt >= attempts || !isTransient(err)) throw err;
      const wait = backoffMs(err, attempt, options);
      options.onRetry?.(err, attempt, wait);
      await sleep(wait);
    }
  }
}
