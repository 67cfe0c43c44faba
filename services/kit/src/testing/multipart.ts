/**
 * For the upload tests (unit and end to end): multipart bodies as a client writes them, whole, a
 * piece at a time (slow or stalling clients) or streamed around content of any size.
 */
import { request } from 'node:http';

const BOUNDARY = 'trove-test-boundary';

/** What goes around a file in a multipart/form-data body with one part `file`, named `filename`. */
export function multipartEnvelope(
  filename: string,
  boundary = BOUNDARY,
): { head: Buffer; tail: Buffer; contentType: string } {
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return {
    head: Buffer.from(head),
    tail: Buffer.from(`\r\n--${boundary}--\r\n`),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** A multipart/form-data body with one part `file`, named `filename`. */
export function multipartBody(file: Buffer, filename = 'slow.png'): { body: Buffer; contentType: string } {
  const { head, tail, contentType } = multipartEnvelope(filename);
  return { body: Buffer.concat([head, file, tail]), contentType };
}

/** `buf` cut into `n` pieces of about the same size. */
export function piecesOf(buf: Buffer, n: number): Buffer[] {
  return Array.from({ length: n }, (_, i) =>
    buf.subarray(Math.floor((i * buf.length) / n), Math.floor(((i + 1) * buf.length) / n)),
  );
}

export interface PiecewiseUpload {
  /** Written one after the other, each `gapMs` after the previous one went out; nothing after the last. */
  pieces: Buffer[];
  gapMs: number;
  /** Content-Length as announced (the whole body's, even when not all pieces are sent). */
  declaredLength: number;
  headers: Record<string, string | number>;
}

/** POSTs a body in pieces; resolves with the JSON answer whenever it comes (even before the body is complete). */
export function postInPieces(
  url: string,
  upload: PiecewiseUpload,
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { ...upload.headers, 'Content-Length': upload.declaredLength },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> });
      });
    });
    req.on('error', reject);
    const next = (i: number) => {
      if (i < upload.pieces.length && !req.destroyed)
        req.write(upload.pieces[i], () => setTimeout(() => next(i + 1), upload.gapMs));
    };
    next(0);
  });
}
