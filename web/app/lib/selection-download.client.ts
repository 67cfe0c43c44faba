/**
 * "Download" of selected items: the originals as one ZIP, saved by the browser as it streams (never
 * held in the page). The selection is first checked (`?check`: the API accepts it, nothing is
 * sent), so a refusal is told on the page; then a form posts it into a hidden frame, and the
 * answer's `Content-Disposition: attachment` makes it a download while the page stays as it is.
 */
import { HttpError, postForm } from './fetch-json.client';

/** The frame downloads are posted into (an answer that is not a download stays invisible there). */
const FRAME = 'trove-download';

export const DOWNLOAD_URL = '/api/download';

export function selectionFields(ids: string[], albumId?: string): URLSearchParams {
  const fields = new URLSearchParams();
  for (const id of ids) fields.append('id', id);
  if (albumId) fields.set('albumId', albumId);
  return fields;
}

/**
 * Starts the download of `ids` (items seen in album `albumId`, if given). Rejects with the reason
 * when the selection is refused; `onLost` is told when the download itself did not start.
 */
export async function downloadSelection(ids: string[], albumId: string | undefined, onLost: () => void): Promise<void> {
  const fields = selectionFields(ids, albumId);
  try {
    await postForm(`${DOWNLOAD_URL}?check`, fields);
  } catch (err) {
    if (err instanceof HttpError && err.status === 404)
      throw new HttpError(404, 'Some of these items are no longer there. Reload the page and try again.');
    throw err;
  }
  let frame = document.querySelector<HTMLIFrameElement>(`iframe[name="${FRAME}"]`);
  if (!frame) {
    frame = document.createElement('iframe');
    frame.name = FRAME;
    frame.hidden = true;
    frame.title = 'Downloads';
    document.body.append(frame);
  }
  // A download loads nothing into the frame; anything that does load there is a failure page.
  frame.onload = onLost;
  const form = document.createElement('form');
  form.method = 'post';
  form.action = DOWNLOAD_URL;
  form.target = FRAME;
  form.hidden = true;
  for (const [name, value] of fields) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
  form.remove();
}
