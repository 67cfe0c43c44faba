import { ConfigError } from '@trove/kit/config';
import { parseWebConfig } from './config.server';

const secret = 'x'.repeat(40);

describe('web configuration', () => {
  it('has defaults for everything, with generated session and proxy secrets', () => {
    const generated = jest.fn((name: string) => `${name}:${secret}`);
    expect(parseWebConfig({}, generated)).toEqual({
      port: 3000,
      host: '0.0.0.0',
      apiUrl: 'http://127.0.0.1:5001',
      sessionSecrets: [`web-session-secret:${secret}`],
      sessionTtlDays: 30,
      trashRetentionSeconds: 30 * 86400,
      logLevel: 'info',
      proxySecret: `proxy-secret:${secret}`,
      trustedProxies: [],
      publicOrigin: undefined,
      bodyLimitBytes: 64 * 1024,
      hstsMaxAgeSeconds: 180 * 86400,
    });
    expect(generated.mock.calls).toEqual([['web-session-secret'], ['proxy-secret']]);
  });

  it('reads the variables, and takes several comma-separated session secrets (first seals, all open)', () => {
    const generated = jest.fn(() => secret);
    const c = parseWebConfig(
      {
        TROVE_WEB_PORT: '8080',
        TROVE_API_URL: 'https://api.example.org/',
        TROVE_SESSION_SECRET: `${'a'.repeat(32)}, ${'b'.repeat(32)}`,
        TROVE_TRASH_RETENTION_DAYS: '7',
      },
      generated,
    );
    expect(c).toMatchObject({
      port: 8080,
      apiUrl: 'https://api.example.org',
      sessionSecrets: ['a'.repeat(32), 'b'.repeat(32)],
      trashRetentionSeconds: 7 * 86400,
    });
    expect(generated).not.toHaveBeenCalledWith('web-session-secret');
    generated.mockClear();
    expect(
      parseWebConfig(
        {
          TROVE_PROXY_SECRET: 'p'.repeat(32),
          TROVE_TRUSTED_PROXIES: '10.0.0.5, 172.16.0.0/12,fd00::/8,loopback',
          TROVE_WEB_PUBLIC_URL: 'https://Photos.Example.org/',
        },
        generated,
      ),
    ).toMatchObject({
      proxySecret: 'p'.repeat(32),
      trustedProxies: ['10.0.0.5', '172.16.0.0/12', 'fd00::/8', 'loopback'],
      publicOrigin: 'https://photos.example.org',
    });
    expect(generated).not.toHaveBeenCalledWith('proxy-secret');
    // The media service's short test setting wins over days, as there.
    expect(
      parseWebConfig({ TROVE_TRASH_RETENTION_SECONDS: '120', TROVE_TRASH_RETENTION_DAYS: '9' }, generated)
        .trashRetentionSeconds,
    ).toBe(120);
  });

  it.each([
    [{ TROVE_WEB_PORT: 'http' }, 'TROVE_WEB_PORT'],
    [{ TROVE_WEB_PORT: '70000' }, 'TROVE_WEB_PORT'],
    [{ TROVE_API_URL: 'ftp://x' }, 'TROVE_API_URL'],
    [{ TROVE_API_URL: 'not a url' }, 'TROVE_API_URL'],
    [{ TROVE_SESSION_SECRET: 'short' }, 'TROVE_SESSION_SECRET'],
    [{ TROVE_TRASH_RETENTION_DAYS: '0' }, 'TROVE_TRASH_RETENTION_DAYS'],
    [{ TROVE_LOG_LEVEL: 'loud' }, 'TROVE_LOG_LEVEL'],
    [{ TROVE_PROXY_SECRET: 'short' }, 'TROVE_PROXY_SECRET'],
    [{ TROVE_TRUSTED_PROXIES: '127.0.0.1, proxy.lan' }, 'TROVE_TRUSTED_PROXIES'],
    [{ TROVE_TRUSTED_PROXIES: '10.0.0.0/33' }, 'TROVE_TRUSTED_PROXIES'],
    [{ TROVE_WEB_PUBLIC_URL: 'photos.example.org' }, 'TROVE_WEB_PUBLIC_URL'],
    [{ TROVE_WEB_PUBLIC_URL: 'ftp://photos.example.org' }, 'TROVE_WEB_PUBLIC_URL'],
    [{ TROVE_MAP_TILE_URL: 'https://tiles.example/{z}/{x}.png' }, 'TROVE_MAP_TILE_URL'],
    [{ TROVE_MAP_TILE_URL: 'file:///tiles/{z}/{x}/{y}.png' }, 'TROVE_MAP_TILE_URL'],
  ])('rejects %j naming the variable', (env, variable) => {
    let err: unknown;
    try {
      parseWebConfig(env, () => secret);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).problems).toEqual([expect.stringMatching(new RegExp(`^${variable}\\b`))]);
  });

  it('takes a map tile template, and has none by default (no map, no calls)', () => {
    expect(parseWebConfig({}, () => secret).mapTileUrl).toBeUndefined();
    expect(parseWebConfig({ TROVE_MAP_TILE_URL: 'https://tiles.lan/{z}/{x}/{y}.png' }, () => secret).mapTileUrl).toBe(
      'https://tiles.lan/{z}/{x}/{y}.png',
    );
  });

  it('reads the body limit and the HSTS max-age, refusing values out of range', () => {
    const generated = () => secret;
    expect(
      parseWebConfig({ TROVE_WEB_BODY_LIMIT_BYTES: '2048', TROVE_WEB_HSTS_MAX_AGE_SECONDS: '0' }, generated),
    ).toMatchObject({ bodyLimitBytes: 2048, hstsMaxAgeSeconds: 0 });
    expect(() => parseWebConfig({ TROVE_WEB_BODY_LIMIT_BYTES: '10' }, generated)).toThrow(/TROVE_WEB_BODY_LIMIT_BYTES/);
    expect(() => parseWebConfig({ TROVE_WEB_HSTS_MAX_AGE_SECONDS: '-1' }, generated)).toThrow(
      /TROVE_WEB_HSTS_MAX_AGE_SECONDS/,
    );
  });

  it('generates no secret when another variable is bad', () => {
    const generated = jest.fn(() => secret);
    expect(() => parseWebConfig({ TROVE_WEB_PORT: 'http' }, generated)).toThrow(ConfigError);
    expect(generated).not.toHaveBeenCalled();
  });
});
