/**
 * For the pipeline's tests: the work item a step is given, and loggers, one silent and one that keeps its JSON lines
 * for a test to read what was logged.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger } from '@trove/kit';
import type { Logger } from '@trove/kit';
import type { ProcessMediaItemV1 } from '@trove/proto-events';

export const silentLog: Logger = createLogger({ service: 'worker-test', level: 'silent' });

/** A photo's work item with fresh ids; its blob (`originalKey`) is not stored anywhere. */
export const photoItem = (): ProcessMediaItemV1 => ({
  userId: randomUUID(),
  mediaItemId: randomUUID(),
  originalKey: 'k',
  mimeType: 'image/jpeg',
  mediaItemType: 'photo',
  filename: 'a.jpg',
});

/** A logger at its default level whose lines (one JSON object each) are pushed to `lines`. */
export function recordingLog(lines: string[]): Logger {
  return createLogger({
    service: 'worker-test',
    destination: new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }),
  });
}
