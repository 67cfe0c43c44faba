import { getJson } from './fetch-json.client';

describe('getJson', () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  /** A 200 answer whose body is read until `signal` aborts it (as a browser's fetch does). */
  function answerCutBy(signal: AbortSignal, body: unknown = { suggestions: [] }) {
    globalThis.fetch = (async () => ({
      status: 200,
      ok: true,
      json: () =>
        new Promise((resolve, reject) => {
          if (!signal.aborted)
            signal.addEventListener('abort', () =>
              reject(new DOMException('The operation was aborted.', 'AbortError')),
            );
          setTimeout(() => resolve(body), 50);
        }),
    })) as unknown as typeof fetch;
  }

  it('answers the body it read', async () => {
    const controller = new AbortController();
    answerCutBy(controller.signal, { suggestions: ['Amy'] });
    await expect(getJson('/api/suggestions?q=a', controller.signal)).resolves.toEqual({ suggestions: ['Amy'] });
  });

  it('rejects when aborted while the body was read, never answering null', async () => {
    const controller = new AbortController();
    answerCutBy(controller.signal);
    const answer = getJson('/api/suggestions?q=a', controller.signal);
    await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await expect(answer).rejects.toMatchObject({ name: 'AbortError' });
  });
});
