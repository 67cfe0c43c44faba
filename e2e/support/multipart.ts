/**
 * multipart/form-data bodies built byte by byte, for what FormData will not send: raw bytes in a
 * part's filename, a filename in RFC 5987 form (`filename*=`), any mix of parts.
 */
import { randomBytes } from 'node:crypto';

export interface Part {
  name: string;
  /** A file part when given. */
  filename?: string;
  /** Send the filename as `filename*=UTF-8''<percent-encoded>` (any code point, NUL and CR LF included) instead of raw in quotes. */
  encodeFilename?: boolean;
  contentType?: string;
  data: Buffer;
}

export function multipart(parts: Part[]): { contentType: string; body: Buffer } {
  const boundary = `----trove${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let disposition = `form-data; name="${part.name}"`;
    if (part.filename !== undefined) {
      disposition += part.encodeFilename
        ? `; filename*=UTF-8''${encodeURIComponent(part.filename)}`
        : `; filename="${part.filename}"`;
    }
    const type =
      part.filename !== undefined ? `\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}` : '';
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`, 'utf8'),
      part.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(chunks) };
}
