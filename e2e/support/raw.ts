/**
 * Plain fetch, for what the typed client cannot send or read on purpose: methods and paths outside
 * the contract, malformed bodies, a call chosen at run time from openapi.yaml, absolute signed
 * content URLs. From a fresh client address unless the headers name one, like the typed client.
 */
import { randomTestAddress } from './api';

export interface RawAnswer {
  status: number;
  headers: Headers;
  /** The body parsed when it is JSON, else undefined (see `bytes`). */
  body: unknown;
  bytes: Buffer;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as it is, with `Content-Type: contentType` (JSON when not given). */
  raw?: string | Buffer;
  contentType?: string;
}

export async function send(url: string, req: RawRequest = {}): Promise<RawAnswer> {
  const headers: Record<string, string> = { 'X-Forwarded-For': randomTestAddress(), ...req.headers };
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (req.raw !== undefined) {
    body = typeof req.raw === 'string' ? req.raw : new Uint8Array(req.raw);
    headers['Content-Type'] = req.contentType ?? 'application/json';
  } else if (req.json !== undefined) {
    body = JSON.stringify(req.json);
    headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(url, { method: (req.method ?? 'get').toUpperCase(), headers, body });
  const bytes = Buffer.from(await res.arrayBuffer());
  const isJson = (res.headers.get('content-type') ?? '').includes('json');
  return {
    status: res.status,
    headers: res.headers,
    body: isJson && bytes.length ? JSON.parse(bytes.toString('utf8')) : undefined,
    bytes,
  };
}
