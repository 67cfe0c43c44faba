/**
 * POST: the originals of selected items as one ZIP (the gateway's, streamed through, never held
 * here), from a form as the browser submits it: `id` once per item, `albumId` for items seen in an
 * album. `?check` only asks whether the API accepts the selection: 204, or its refusal (the
 * archive it started is dropped at once), so the page can say why before any download starts.
 */
import { json } from '@remix-run/node';
import type { ActionFunctionArgs } from '@remix-run/node';
import { apiFailure, requireSession } from '~/lib/auth.server';
import { isUuid } from '~/lib/ids';
import { zipFailure, zipResponse } from '~/lib/zip-download.server';

/** The contract's bound on one selection. */
export const MAX_DOWNLOAD_ITEMS = 1000;

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return json({ message: 'method not allowed' }, { status: 405 });
  // The session first: nobody without one gets their body read.
  const session = await requireSession(request, context, 'api').catch((err: unknown) => {
    throw apiFailure(err);
  });
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return json({ message: 'expected a form' }, { status: 400 });
  }
  const ids = form.getAll('id');
  const albumId = form.get('albumId');
  if (ids.length === 0 || ids.length > MAX_DOWNLOAD_ITEMS || !ids.every(isUuid))
    return json({ message: `Choose from 1 to ${MAX_DOWNLOAD_ITEMS.toLocaleString('en-GB')} items.` }, { status: 400 });
  if (albumId !== null && !isUuid(albumId)) return json({ message: 'albumId is not an album id' }, { status: 400 });
  const check = new URL(request.url).searchParams.has('check');
  try {
    const zip = await zipResponse(
      session.api.POST('/v1/mediaItems/download', {
        body: { mediaItems: ids, ...(albumId ? { albumId } : {}) },
        parseAs: 'stream',
        // The browser going away stops the gateway's work too.
        signal: request.signal,
      }),
    );
    if (!check) return zip;
    await zip.body?.cancel();
    return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
  } catch (err) {
    throw zipFailure(err);
  }
}
