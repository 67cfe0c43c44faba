import type { AppError, ErrorCode } from '../errors';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeJson(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

/** Parses JSON bytes; returns undefined (never throws) for malformed input. */
export function decodeJson(data: Uint8Array): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(decoder.decode(data)) };
  } catch {
    return { ok: false };
  }
}

/** The body of an RPC error reply. */
export interface ErrorReply {
  error: { code: ErrorCode; message: string; details?: Record<string, unknown> };
}

export interface ResultReply<T> {
  result: T;
}

export function errorReply(err: AppError): ErrorReply {
  return { error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } };
}
