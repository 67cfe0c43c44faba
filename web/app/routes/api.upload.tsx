/**
 * POST multipart/form-data with one `file` part: relayed to `POST /v1/mediaItems` as a stream (the
 * web server never holds the file), with the session's token. The API's answer is passed back as is
 * (201 {id}, 409 {message, id}, 400, 413), so the browser can tell duplicates from failures.
 */
import { json } from '@remix-run/node';
import type { ActionFunctionArgs } from '@remix-run/node';
import type { paths } from '~/api/types';
import { apiFailure, requireSession } from '~/lib/auth.server';
import { relayUpload } from '~/lib/upload-relay.server';

const UPLOAD_PATH = '/v1/mediaItems' satisfies keyof paths;

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return json({ message: 'method not allowed' }, { status: 405 });
  const contentType = request.headers.get('Content-Type') ?? '';
  if (!contentType.toLowerCase().startsWith('multipart/form-data') || !request.body) {
    return json({ message: 'send the file as multipart/form-data with a part named "file"' }, { status: 400 });
  }
  try {
    const session = await requireSession(request, context, 'api');
    const token = await session.accessToken();
    const headers: Record<string, string> = { 'Content-Type': contentType, Authorization: `Bearer ${token}` };
    const length = request.headers.get('Content-Length');
    if (length) headers['Content-Length'] = length;
    const upstream = await relayUpload(`${context.config.apiUrl}${UPLOAD_PATH}`, headers, request.body, request.signal);
    if (!upstream) return json({ message: 'The Trove server cannot be reached right now.' }, { status: 503 });
    return json(upstream.body, { status: upstream.status, headers: await session.headers() });
  } catch (err) {
    throw apiFailure(err);
  }
}

export function loader() {
  return json({ message: 'POST a file here' }, { status: 405 });
}
