/**
 * A small HTTP client for the end-to-end suites: JSON in and out, basic or bearer credentials, and
 * a fresh client address per call unless one is given (the test stack's gateway trusts
 * X-Forwarded-For from loopback), so the per-address login limit only bites the tests that aim at it.
 */
import { randomInt } from 'node:crypto';

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
  ms: number;
}

export interface CallOptions {
  body?: unknown;
  /** Raw body (sent as is, with `contentType`). */
  raw?: string;
  contentType?: string;
  basic?: { username: string; password: string };
  bearer?: string;
  headers?: Record<string, string>;
  clientAddress?: string;
}

export class Api {
  constructor(readonly baseUrl: string) {}

  async call<T = Record<string, unknown>>(method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { 'X-Forwarded-For': opts.clientAddress ?? randomTestAddress(), ...opts.headers };
    if (opts.basic) headers.Authorization = `Basic ${Buffer.from(`${opts.basic.username}:${opts.basic.password}`).toString('base64')}`;
    if (opts.bearer) headers.Authorization = `Bearer ${opts.bearer}`;
    let body: string | undefined;
    if (opts.raw !== undefined) {
      body = opts.raw;
      headers['Content-Type'] = opts.contentType ?? 'application/json';
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['Content-Type'] = 'application/json';
    }
    const started = Date.now();
    const res = await fetch(this.baseUrl + path, { method: method.toUpperCase(), headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed as T, headers: res.headers, ms: Date.now() - started };
  }
}

/** An address from TEST-NET-2/3 (never a real client, never a trusted proxy). */
export function randomTestAddress(): string {
  return `${randomInt(0, 2) ? '198.51.100' : '203.0.113'}.${randomInt(1, 255)}`;
}
