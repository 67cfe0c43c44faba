import { spawnSync } from 'node:child_process';
import {
  ConfigError,
  bool,
  decimal,
  int,
  list,
  loadConfig,
  logLevel,
  oneOf,
  optionalStr,
  proxyList,
  redactUrl,
  str,
  url,
} from './index';
import { commonSpec } from './common';

describe('config', () => {
  const spec = {
    port: int('TROVE_X_PORT', { default: 5001, min: 1, max: 65535 }),
    name: str('TROVE_X_NAME'),
    debug: bool('TROVE_X_DEBUG', { default: false }),
    mode: oneOf('TROVE_X_MODE', ['a', 'b'] as const, { default: 'a' }),
    nested: { url: url('TROVE_X_URL', { default: 'nats://localhost:4222', protocols: ['nats'] }) },
    opt: optionalStr('TROVE_X_OPT'),
  };

  it('applies defaults and parses values', () => {
    const c = loadConfig(spec, { TROVE_X_NAME: 'trove', TROVE_X_DEBUG: 'yes', TROVE_X_PORT: '8080' });
    expect(c).toEqual({
      port: 8080,
      name: 'trove',
      debug: true,
      mode: 'a',
      nested: { url: 'nats://localhost:4222' },
      opt: undefined,
    });
  });

  it('names every bad or missing variable at once', () => {
    let err: unknown;
    try {
      loadConfig(spec, { TROVE_X_PORT: '99999', TROVE_X_DEBUG: 'maybe', TROVE_X_MODE: 'c', TROVE_X_URL: 'http://x' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as ConfigError).message;
    expect(msg).toContain('TROVE_X_PORT must be ≤ 65535');
    expect(msg).toContain('TROVE_X_NAME is required');
    expect(msg).toContain('TROVE_X_DEBUG must be true or false');
    expect(msg).toContain('TROVE_X_MODE must be one of a, b');
    expect(msg).toContain('TROVE_X_URL must use nats');
    expect((err as ConfigError).problems).toHaveLength(5);
  });

  it('treats blank values as unset', () => {
    expect(loadConfig({ p: int('TROVE_X_P', { default: 3 }) }, { TROVE_X_P: '  ' })).toEqual({ p: 3 });
  });

  it('never prints a password from a URL', () => {
    expect(redactUrl('mongodb://user:s3cret@db:27017/trove')).toBe('mongodb://user:***@db:27017/trove');
    const c = () => loadConfig({ u: url('TROVE_X_U') }, { TROVE_X_U: 'not a url with s3cret' });
    expect(c).toThrow(/TROVE_X_U must be a URL/);
  });

  it('the common variables have working defaults', () => {
    const c = loadConfig(commonSpec, {});
    expect(c.natsUrl).toBe('nats://127.0.0.1:4222');
    expect(c.rpcTimeoutMs).toBe(5000);
  });

  it('reads decimal numbers within their bounds', () => {
    const spec = { d: decimal('TROVE_X_D', { default: 0.3, min: 0, max: 2 }) };
    expect(loadConfig(spec, {})).toEqual({ d: 0.3 });
    expect(loadConfig(spec, { TROVE_X_D: '.25' })).toEqual({ d: 0.25 });
    expect(loadConfig(spec, { TROVE_X_D: '2' })).toEqual({ d: 2 });
    for (const bad of ['2.5', '-0.1', 'abc', '1e-2', '0.3.1'])
      expect(() => loadConfig(spec, { TROVE_X_D: bad })).toThrow(
        `TROVE_X_D must be a number from 0 to 2, got "${bad}"`,
      );
  });

  it('reads comma-separated lists, each value long enough', () => {
    const spec = { keys: list('TROVE_X_KEYS', { minLength: 3 }) };
    expect(loadConfig(spec, {})).toEqual({ keys: [] });
    expect(loadConfig(spec, { TROVE_X_KEYS: ' abc, defg ,, ' })).toEqual({ keys: ['abc', 'defg'] });
    expect(() => loadConfig(spec, { TROVE_X_KEYS: 'abc,de' })).toThrow(
      'TROVE_X_KEYS: each value must be at least 3 characters',
    );
  });

  describe('trusted proxy lists', () => {
    const read = (value?: string) =>
      loadConfig({ proxies: proxyList('TROVE_X_PROXIES') }, { TROVE_X_PROXIES: value }).proxies;

    it('are empty when unset: no proxy is trusted unless listed', () => {
      expect(read()).toEqual([]);
      expect(read(' ')).toEqual([]);
    });

    it('list addresses, CIDRs and range names', () => {
      expect(read('10.0.0.5, 172.16.0.0/12,fd00::/8, ::1 ,loopback')).toEqual([
        '10.0.0.5',
        '172.16.0.0/12',
        'fd00::/8',
        '::1',
        'loopback',
      ]);
    });

    it.each(['proxy.local', '10.0.0.0/33', '::/129', '10.0.0.1/8/1', 'private', '10.0.0.0/x', '10.0.0.0/'])(
      'refuse %s, naming the variable',
      (entry) => {
        expect(() => read(`127.0.0.1,${entry}`)).toThrow(/TROVE_X_PROXIES must list addresses/);
      },
    );
  });

  it('reads log levels in any case and names the variable when it is not one', () => {
    const spec = { level: logLevel('TROVE_X_LEVEL', { default: 'info' }) };
    expect(loadConfig(spec, {})).toEqual({ level: 'info' });
    expect(loadConfig(spec, { TROVE_X_LEVEL: 'DEBUG' })).toEqual({ level: 'debug' });
    expect(() => loadConfig(spec, { TROVE_X_LEVEL: 'loud' })).toThrow(
      'TROVE_X_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got "loud"',
    );
  });

  it('a service started with a bad variable stops with a message naming it', () => {
    const script = `require(${JSON.stringify(require.resolve('../../dist/config'))}).loadConfigOrExit('demo', { port: require(${JSON.stringify(require.resolve('../../dist/config'))}).int('TROVE_X_PORT') })`;
    const out = spawnSync(process.execPath, ['-e', script], {
      env: { ...process.env, TROVE_X_PORT: 'abc' },
      encoding: 'utf8',
    });
    expect(out.status).toBe(78);
    expect(out.stderr).toContain('demo: invalid configuration');
    expect(out.stderr).toContain('TROVE_X_PORT must be an integer, got "abc"');
  });

  it('a configuration read by hand stops the process the same way', () => {
    const config = JSON.stringify(require.resolve('../../dist/config'));
    const script = `const c = require(${config}); c.configOrExit('demo', () => { throw new c.ConfigError(['TROVE_X_SECRET is too short']); })`;
    const out = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(out.status).toBe(78);
    expect(out.stderr).toContain('demo: invalid configuration:\n  - TROVE_X_SECRET is too short');
  });
});
