import { AsyncLocalStorage } from 'node:async_hooks';
import { isSpanContextValid, trace } from '@opentelemetry/api';
import pino from 'pino';
import type { Logger } from 'pino';

export type { Logger } from 'pino';

/** Per-request context carried across awaits, so every log line names its request. */
export interface RequestContext {
  requestId?: string;
  userId?: string;
}

const contextStore = new AsyncLocalStorage<RequestContext>();

export function runWithContext<T>(ctx: RequestContext, fn: () => T): T {
  return contextStore.run(ctx, fn);
}

export function currentContext(): RequestContext {
  return contextStore.getStore() ?? {};
}

/** Field paths never written to logs, wherever they appear. */
export const REDACTED_PATHS = [
  'password',
  '*.password',
  'accessToken',
  '*.accessToken',
  'refreshToken',
  '*.refreshToken',
  'secret',
  '*.secret',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
];

export interface LoggerOptions {
  service: string;
  level?: string;
  /** Where lines go; stdout by default (tests pass a stream to read them back). */
  destination?: pino.DestinationStream;
}

/**
 * Structured JSON logs. Every line carries the service name and, when known, the request id,
 * user id and the active OpenTelemetry trace/span ids.
 */
export function createLogger(opts: LoggerOptions): Logger {
  return pino(
    {
      level: opts.level ?? 'info',
      base: { service: opts.service },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
      mixin() {
        const ctx = contextStore.getStore();
        const span = trace.getActiveSpan()?.spanContext();
        return {
          ...(ctx?.requestId ? { requestId: ctx.requestId } : {}),
          ...(ctx?.userId ? { userId: ctx.userId } : {}),
          ...(span && isSpanContextValid(span) ? { traceId: span.traceId, spanId: span.spanId } : {}),
        };
      },
    },
    opts.destination,
  );
}
