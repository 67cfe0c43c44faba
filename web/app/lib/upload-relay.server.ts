/**
 * The upload relay's one request to the gateway, through node:http with stream.pipeline: the file
 * flows at the pace the gateway reads it, a few chunks in memory at a time. (`fetch` with a stream
 * body kept every chunk of the body in memory until the answer: a 1 GiB upload held 1 GiB.)
 */
import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';

/** The gateway's answer (its JSON body, or a message when it sent none), or null when it could not be reached. */
export async function relayUpload(
  url: string,
  headers: Record<string, string>,
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
): Promise<{ status: number; body: unknown } | null> {
  const target = new URL(url);
  const out = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, { method: 'POST', headers, signal });
  const answer = new Promise<IncomingMessage>((resolve, reject) => {
    out.once('response', resolve);
    out.once('error', reject);
  });
  // The gateway may answer (413, 401…) before the whole body is sent: the answer wins over a failed send.
  const sent = pipeline(Readable.fromWeb(body as NodeReadableStream<Uint8Array>), out).catch((err: unknown) => err);
  let res: IncomingMessage;
  try {
    res = await answer;
  } catch {
    return null;
  }
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  void sent;
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return { status: res.statusCode ?? 502, body: JSON.parse(text) as unknown };
  } catch {
    return { status: res.statusCode ?? 502, body: { message: `the API answered ${res.statusCode}` } };
  }
}
