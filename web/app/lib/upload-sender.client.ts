/**
 * Sending a file from the browser, with progress: XMLHttpRequest is the only browser API that
 * reports upload progress. Browser-only (`.client`): on the server this module is empty.
 */
import { resultFromResponse } from './upload-queue';
import type { SendResult } from './upload-queue';

/** Posts one file as multipart/form-data (part `file`) to `url`, reporting the bytes sent. */
export function sendFile(
  url: string,
  file: File,
  onProgress: (loaded: number) => void,
  signal: AbortSignal,
): Promise<SendResult> {
  return new Promise<SendResult>((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => resolve(resultFromResponse(xhr.status, xhr.response));
    xhr.onerror = () => resolve({ kind: 'failed', message: 'Server unreachable, try again' });
    xhr.onabort = () => resolve({ kind: 'failed', message: 'Cancelled' });
    signal.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
