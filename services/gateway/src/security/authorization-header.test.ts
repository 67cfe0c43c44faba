import { parseBasicAuth, parseBearer } from './authorization-header';

const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;

describe('Authorization header parsing', () => {
  it('reads basic credentials, the password may contain colons', () => {
    expect(parseBasicAuth(basic('admin:s3cret'))).toEqual({ username: 'admin', password: 's3cret' });
    expect(parseBasicAuth(basic('admin:a:b:c'))).toEqual({ username: 'admin', password: 'a:b:c' });
    expect(parseBasicAuth(basic('admin:'))).toEqual({ username: 'admin', password: '' });
    expect(parseBasicAuth(`basic ${Buffer.from('u:p').toString('base64')}`)).toEqual({ username: 'u', password: 'p' });
  });

  it.each([
    undefined,
    '',
    'Basic',
    'Basic !!!',
    basic('no-colon'),
    `Bearer ${Buffer.from('a:b').toString('base64')}`,
    'Digest abc',
  ])('finds no basic credentials in %j', (header) => {
    expect(parseBasicAuth(header)).toBeUndefined();
  });

  it('reads bearer tokens', () => {
    expect(parseBearer('Bearer abc.def-ghi_jkl')).toBe('abc.def-ghi_jkl');
    expect(parseBearer('bearer tok==')).toBe('tok==');
  });

  it.each([undefined, '', 'Bearer', 'Bearer ', 'Bearer a b', 'Basic abc', 'Bearer tok"en'])(
    'finds no bearer token in %j',
    (header) => {
      expect(parseBearer(header)).toBeUndefined();
    },
  );
});
