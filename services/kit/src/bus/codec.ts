import type { AppError, ErrorCode } from '../errors';
import { jsonBytes } from './json-bytes';

const decoder = new TextDecoder();

/** A message's JSON bytes (a page of items is written a member at a time: see json-bytes.ts). */
export function encodeJson(value: unknown): Uint8Array {
  return jsonBytes(value) ?? new Uint8Array(0);
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
