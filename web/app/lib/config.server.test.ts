import { ConfigError } from '@trove/kit/config';
import { parseWebConfig } from './config.server';

const secret = 'x'.repeat(40);

describe('web configuration', () => {
  it('has defaults for everything, with a generated session secret', () => {
    const generated = jest.fn(() => secret);
    expect(parseWebConfig({}, generated)).toEqual({
      port: 3000,
      host: '0.0.0.0',
      apiUrl: 'http://127.0.0.1:5001',
      sessionSecrets: [secret],
      sessionTtlDays: 30,
      trashRetentionSeconds: 30 * 86400,
      logLevel: 'info',
    });
    expect(generated).toHaveBeenCalledTimes(1);
  });

  it('reads the variables, and takes several comma-separated session secrets (first seals, all open)', () => {
    const generated = jest.fn(() => secret);
    const c = parseWebConfig(
      { TROVE_WEB_PORT: '8080', TROVE_API_URL: 'https://api.example.org/', TROVE_SESSION_SECRET: `${'a'.repeat(32)}, ${'b'.repeat(32)}`, TROVE_TRASH_RETENTION_DAYS: '7' },
      generated,
    );
    expect(c).toMatchObject({ port: 8080, apiUrl: 'https://api.example.org', sessionSecrets: ['a'.repeat(32), 'b'.repeat(32)], trashRetentionSeconds: 7 * 86400 });
    expect(generated).not.toHaveBeenCalled();
    // The media service's short test setting wins over days, as there.
    expect(parseWebConfig({ TROVE_TRASH_RETENTION_SECONDS: '120', TROVE_TRASH_RETENTION_DAYS: '9' }, generated).trashRetentionSeconds).toBe(120);
  });

  it.each([
    [{ TROVE_WEB_PORT: 'http' }, 'TROVE_WEB_PORT'],
    [{ TROVE_WEB_PORT: '70000' }, 'TROVE_WEB_PORT'],
    [{ TROVE_API_URL: 'ftp://x' }, 'TROVE_API_URL'],
    [{ TROVE_API_URL: 'not a url' }, 'TROVE_API_URL'],
    [{ TROVE_SESSION_SECRET: 'short' }, 'TROVE_SESSION_SECRET'],
    [{ TROVE_TRASH_RETENTION_DAYS: '0' }, 'TROVE_TRASH_RETENTION_DAYS'],
    [{ TROVE_LOG_LEVEL: 'loud' }, 'TROVE_LOG_LEVEL'],
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

  it('generates no session secret when another variable is bad', () => {
    const generated = jest.fn(() => secret);
    expect(() => parseWebConfig({ TROVE_WEB_PORT: 'http' }, generated)).toThrow(ConfigError);
    expect(generated).not.toHaveBeenCalled();
  });
});
