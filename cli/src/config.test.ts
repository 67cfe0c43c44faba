import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { configPath, loadConfig, normaliseServer, saveConfig } from './config';

describe('config', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'trove-home-'));
  });
  afterEach(() => rm(home, { recursive: true, force: true }));

  it('lives in ~/.config/trove, or under XDG_CONFIG_HOME when that is an absolute path', () => {
    expect(configPath({ env: {}, home })).toBe(path.join(home, '.config/trove/config.json'));
    expect(configPath({ env: { XDG_CONFIG_HOME: '/x/cfg' }, home })).toBe('/x/cfg/trove/config.json');
    expect(configPath({ env: { XDG_CONFIG_HOME: 'relative' }, home })).toBe(
      path.join(home, '.config/trove/config.json'),
    );
  });

  it('is written readable by its owner alone, and read back', async () => {
    const environment = { env: { XDG_CONFIG_HOME: path.join(home, 'cfg') }, home };
    const file = await saveConfig({ server: 'http://nas:3000', apiKey: 'trove_secret' }, environment);
    expect(file).toBe(path.join(home, 'cfg/trove/config.json'));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ server: 'http://nas:3000', apiKey: 'trove_secret' });
    expect(await loadConfig(environment)).toEqual({ server: 'http://nas:3000', apiKey: 'trove_secret' });
  });

  it('tightens a folder and file that were more open', async () => {
    const dir = path.join(home, '.config/trove');
    await mkdir(dir, { recursive: true, mode: 0o755 });
    await writeFile(path.join(dir, 'config.json'), '{}', { mode: 0o644 });
    const file = await saveConfig({ server: 'http://a', apiKey: 'k' }, { env: {}, home });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
  });

  it('lets TROVE_SERVER and TROVE_API_KEY override the file, one or both', async () => {
    await saveConfig({ server: 'http://file:1', apiKey: 'from-file' }, { env: {}, home });
    expect(await loadConfig({ env: { TROVE_API_KEY: 'from-env' }, home })).toEqual({
      server: 'http://file:1',
      apiKey: 'from-env',
    });
    expect(await loadConfig({ env: { TROVE_SERVER: 'https://env.example/', TROVE_API_KEY: 'k' }, home })).toEqual({
      server: 'https://env.example',
      apiKey: 'k',
    });
  });

  it('says how to log in when nothing is configured, and refuses a broken file', async () => {
    await expect(loadConfig({ env: {}, home })).rejects.toThrow('not logged in: run trove login --server URL');
    await expect(loadConfig({ env: { TROVE_SERVER: 'http://a' }, home })).rejects.toThrow('not logged in');
    await mkdir(path.join(home, '.config/trove'), { recursive: true });
    await writeFile(path.join(home, '.config/trove/config.json'), '{broken');
    await expect(loadConfig({ env: {}, home })).rejects.toThrow('is not valid JSON');
  });

  it('takes http(s) addresses only', () => {
    expect(normaliseServer('http://localhost:3000/')).toBe('http://localhost:3000');
    expect(() => normaliseServer('localhost:3000')).toThrow();
    expect(() => normaliseServer('ftp://host')).toThrow('not an http(s) address');
  });
});
