import { mayChangeState } from './same-origin.server';

describe('the cross-site request check', () => {
  const byHost = { host: 'photos.lan:3000' };

  it.each(['GET', 'HEAD', 'OPTIONS', 'get'])('lets %s through from anywhere, Origin or not', (method) => {
    expect(mayChangeState(method, undefined, byHost)).toBe(true);
    expect(mayChangeState(method, 'https://evil.example', byHost)).toBe(true);
  });

  describe.each(['POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND', 'post'])('%s', (method) => {
    it('is allowed from the app’s own origin', () => {
      expect(mayChangeState(method, 'http://photos.lan:3000', byHost)).toBe(true);
      expect(mayChangeState(method, 'https://Photos.Example.org', { host: 'photos.example.org:443' })).toBe(true);
    });

    it.each([
      ['without Origin', undefined],
      ['with an empty Origin', ''],
      ['with Origin null', 'null'],
      ['from another site', 'https://evil.example'],
      ['from another port of the host', 'http://photos.lan:3001'],
      ['from a subdomain', 'http://evil.photos.lan:3000'],
      ['with a malformed Origin', 'photos.lan:3000'],
    ])('is refused %s', (_what, origin) => {
      expect(mayChangeState(method, origin, byHost)).toBe(false);
    });

    it('is refused when the request names no host', () => {
      expect(mayChangeState(method, 'http://photos.lan:3000', {})).toBe(false);
    });
  });

  describe('with TROVE_WEB_PUBLIC_URL', () => {
    const app = { publicOrigin: 'https://photos.example.org', host: 'photos.example.org' };

    it('accepts only that origin, whatever the Host', () => {
      expect(mayChangeState('POST', 'https://photos.example.org', app)).toBe(true);
      expect(mayChangeState('POST', 'https://photos.example.org', { ...app, host: 'internal:3000' })).toBe(true);
      // Same host, other scheme: not the configured origin.
      expect(mayChangeState('POST', 'http://photos.example.org', app)).toBe(false);
      expect(mayChangeState('POST', 'https://evil.example', { ...app, host: 'evil.example' })).toBe(false);
      expect(mayChangeState('POST', undefined, app)).toBe(false);
    });
  });
});
