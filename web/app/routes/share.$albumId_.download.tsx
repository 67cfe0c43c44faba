/** GET: a shared album as a ZIP, for a visitor of its link when it allows downloads (with the unlock token of a password). */
import type { LoaderFunctionArgs } from '@remix-run/node';
import { albumIdFrom } from '~/lib/albums.server';
import { readShareToken } from '~/lib/share-token.server';
import { visitorApi } from '~/lib/visitor.server';
import { zipFailure, zipResponse } from '~/lib/zip-download.server';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const id = albumIdFrom(params);
  try {
    const api = visitorApi(context, await readShareToken(request, id));
    return await zipResponse(
      api.GET('/v1/sharing/{id}/download', { params: { path: { id } }, parseAs: 'stream', signal: request.signal }),
    );
  } catch (err) {
    throw zipFailure(err);
  }
}
