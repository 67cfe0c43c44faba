import { decodeCursor, encodeCursor, nextLink } from './list-cursor';

describe('list cursors', () => {
  const position = { creationTime: '2024-05-01T10:20:30.456Z', id: '0b9c6a7e-3f43-4b0e-9d2a-1a2b3c4d5e6f' };

  it('gives back the position it encodes, in a URL-safe form', () => {
    const cursor = encodeCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(position);
  });

  it.each([
    ['not base64 JSON', '%%%'],
    ['JSON but not a pair', Buffer.from('{"a":1}').toString('base64url')],
    ['a date that is not ISO', Buffer.from('["yesterday","x"]').toString('base64url')],
    ['an empty id', Buffer.from('["2024-05-01T10:20:30.456Z",""]').toString('base64url')],
    ['an id too long', Buffer.from(`["2024-05-01T10:20:30.456Z","${'x'.repeat(101)}"]`).toString('base64url')],
  ])('refuses %s with a 400', (_what, cursor) => {
    expect(() => decodeCursor(cursor)).toThrow(expect.objectContaining({ code: 'BAD_REQUEST' }));
  });

  it('links the next page with the cursor in place of the page number, keeping the filters', () => {
    const link = nextLink('/v1/mediaItems?limit=100&page=3&type=video', 'abc');
    expect(link).toBe('</v1/mediaItems?limit=100&type=video&cursor=abc>; rel="next"');
  });
});
