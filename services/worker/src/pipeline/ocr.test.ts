/**
 * The OCR step's failure policy: a photo the reader fails on goes on without words (absent, not
 * empty); an engine that cannot be loaded is a tool error the queue retries.
 */
import { MediaError, OcrEngineError, OcrTimeoutError } from '../components';
import { findWords } from './ocr';
import { photoItem, silentLog } from './work-item.fake';

const log = silentLog;
const item = photoItem();
const grey = { data: Buffer.alloc(12, 128), width: 2, height: 2, channels: 3 };

describe('findWords', () => {
  it('the words the reader found, with the time limit it was given', async () => {
    let limit = 0;
    const words = await findWords(log, item, grey, {
      timeoutSeconds: 7,
      read: async (_p, { timeoutMs }) => ((limit = timeoutMs), ['OPEN']),
    });
    expect(words).toEqual(['OPEN']);
    expect(limit).toBe(7000);
  });

  it('a photo the reader fails on, or one over the limit: no words (absent), the item goes on', async () => {
    expect(await findWords(log, item, grey, { read: () => Promise.reject(new Error('bad picture')) })).toBeUndefined();
    expect(await findWords(log, item, grey, { read: () => Promise.reject(new OcrTimeoutError(5)) })).toBeUndefined();
  });

  it('an engine that cannot be loaded: a tool error, thrown for the queue to retry the item', async () => {
    const err = (await findWords(log, item, grey, {
      read: () => Promise.reject(new OcrEngineError(new Error('ENOENT'))),
    }).catch((e: unknown) => e)) as MediaError;
    expect(err).toBeInstanceOf(MediaError);
    expect(err.kind).toBe('tool');
    expect(err.message).toMatch(/^the OCR engine cannot be loaded: ENOENT/);
  });
});
