import { mkdtempSync, rmSync, statSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, createLogger } from '@trove/kit';
import { AdminCredentials, loadAdminCredentials } from './admin-credentials';

const log = createLogger({ service: 'test', level: 'silent' });

describe('administrator credentials', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'trove-admin-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('matches only the exact username and password', () => {
    const admin = new AdminCredentials('admin', 'a-long-password');
    expect(admin.matches({ username: 'admin', password: 'a-long-password' })).toBe(true);
    expect(admin.matches({ username: 'admin', password: 'a-long-passwor' })).toBe(false);
    expect(admin.matches({ username: 'Admin', password: 'a-long-password' })).toBe(false);
    expect(admin.matches({ username: '', password: '' })).toBe(false);
  });

  it('uses the configured password', () => {
    const admin = loadAdminCredentials(
      { dataDir: dir, adminUsername: 'root', adminPassword: 'configured-password' },
      12,
      log,
    );
    expect(admin.matches({ username: 'root', password: 'configured-password' })).toBe(true);
  });

  it('generates a strong password once, kept 0600 under the data dir, when none is configured', () => {
    const first = loadAdminCredentials({ dataDir: dir, adminUsername: 'admin' }, 12, log);
    const file = join(dir, 'secrets', 'admin-password');
    const password = readFileSync(file, 'utf8').trim();
    expect(password.length).toBeGreaterThanOrEqual(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.matches({ username: 'admin', password })).toBe(true);
    const again = loadAdminCredentials({ dataDir: dir, adminUsername: 'admin' }, 12, log);
    expect(again.matches({ username: 'admin', password })).toBe(true);
  });

  it('refuses (as configuration: exit 78) a short password, configured or kept in the file, and a username basic auth cannot carry', () => {
    expect(() =>
      loadAdminCredentials({ dataDir: dir, adminUsername: 'admin', adminPassword: 'short' }, 12, log),
    ).toThrow(new ConfigError(['TROVE_ADMIN_PASSWORD must be at least 12 characters, it has 5']));
    loadAdminCredentials({ dataDir: dir, adminUsername: 'admin' }, 12, log);
    writeFileSync(join(dir, 'secrets', 'admin-password'), 'short\n');
    expect(() => loadAdminCredentials({ dataDir: dir, adminUsername: 'admin' }, 12, log)).toThrow(ConfigError);
    expect(() =>
      loadAdminCredentials({ dataDir: dir, adminUsername: 'ad:min', adminPassword: 'long-enough-password' }, 12, log),
    ).toThrow(ConfigError);
  });
});
