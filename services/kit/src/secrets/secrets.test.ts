import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { tempDir } from '../testing/temp';
import { ConfigError } from '../config';
import { loadOrCreateSecret, secretPath } from './index';

describe('loadOrCreateSecret', () => {
  it('prefers the configured value and writes nothing', async () => {
    const dir = await tempDir();
    expect(loadOrCreateSecret({ dataDir: dir.path, name: 'x', fromConfig: 'given' })).toEqual({
      value: 'given',
      generated: false,
    });
    await dir.remove();
  });

  it('generates a strong secret once, mode 0600, and returns the same value afterwards', async () => {
    const dir = await tempDir();
    const first = loadOrCreateSecret({ dataDir: dir.path, name: 'jwt' });
    expect(first.generated).toBe(true);
    expect(first.value.length).toBeGreaterThanOrEqual(43); // 32 bytes, base64url
    expect(statSync(secretPath(dir.path, 'jwt')).mode & 0o777).toBe(0o600);
    const again = loadOrCreateSecret({ dataDir: dir.path, name: 'jwt' });
    expect(again).toEqual({ value: first.value, path: first.path, generated: false });
    const other = loadOrCreateSecret({ dataDir: dir.path, name: 'other' });
    expect(other.value).not.toBe(first.value);
    await dir.remove();
  });

  it('reads a secret an operator put there', async () => {
    const dir = await tempDir();
    loadOrCreateSecret({ dataDir: dir.path, name: 'admin' });
    writeFileSync(secretPath(dir.path, 'admin'), 'operator-chosen\n');
    expect(loadOrCreateSecret({ dataDir: dir.path, name: 'admin' }).value).toBe('operator-chosen');
    await dir.remove();
  });

  it('refuses a value shorter than minLength, from the configuration or from the file, naming where it came from', async () => {
    const dir = await tempDir();
    const opts = { dataDir: dir.path, name: 'jwt-secret', minLength: 32, variable: 'TROVE_JWT_SECRET' };
    expect(() => loadOrCreateSecret({ ...opts, fromConfig: 'x'.repeat(31) })).toThrow(
      new ConfigError(['TROVE_JWT_SECRET must be at least 32 characters, it has 31']),
    );
    expect(loadOrCreateSecret({ ...opts, fromConfig: 'x'.repeat(32) }).value).toHaveLength(32);
    const file = secretPath(dir.path, 'jwt-secret');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, 'short-and-weak\n');
    expect(() => loadOrCreateSecret(opts)).toThrow(
      new ConfigError([
        `the secret in ${file} must be at least 32 characters, it has 14 (remove the file to have a strong one generated, or set TROVE_JWT_SECRET)`,
      ]),
    );
    await dir.remove();
  });
});
