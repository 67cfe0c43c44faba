/** GET: the album as a ZIP of its originals, for its owner and members (the gateway's ZIP, streamed through). */
import type { LoaderFunctionArgs } from '@remix-run/node';
import { albumIdFrom } from '~/lib/albums.server';
import { requireSession } from '~/lib/auth.server';
import { zipFailure, zipResponse } from '~/lib/zip-download.server';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const id = albumIdFrom(params);
  try {
    const session = await requireSession(request, context, 'api');
    // The browser going away (request.signal) stops the gateway's work too.
    return await zipResponse(
      session.api.GET('/v1/albums/{id}/download', {
        params: { path: { id } },
        parseAs: 'stream',
        signal: request.signal,
      }),
    );
  } catch (err) {
    throw zipFailure(err);
  }
}
