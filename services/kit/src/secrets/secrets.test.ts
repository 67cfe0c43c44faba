import { statSync, writeFileSync } from 'node:fs';
import { tempDir } from '../testing/temp';
import { loadOrCreateSecret, secretPath } from './index';

describe('loadOrCreateSecret', () => {
  it('prefers the configured value and writes nothing', async () => {
    const dir = await tempDir();
    expect(loadOrCreateSecret({ dataDir: dir.path, name: 'x', fromConfig: 'given' })).toEqual({ value: 'given', generated: false });
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
});
