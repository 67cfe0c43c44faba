/**
 * Where `trove` keeps its server and API key: `$XDG_CONFIG_HOME/trove/config.json` (else
 * `~/.config/trove/config.json`), a file only its owner may read (0600, in a 0700 directory), because
 * the key acts as the user. `TROVE_SERVER` and `TROVE_API_KEY` override what the file says (scripts, CI).
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

export interface Config {
  server: string;
  apiKey: string;
}

/** The variables and home directory the configuration is read from (the process's, unless a test gives others). */
export interface Environment {
  env: NodeJS.ProcessEnv;
  home: string;
}

const processEnvironment = (): Environment => ({ env: process.env, home: homedir() });

export function configPath({ env, home }: Environment = processEnvironment()): string {
  const base =
    env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config');
  return path.join(base, 'trove', 'config.json');
}

/** A server address as the rest of the program uses it: an http(s) URL without a trailing slash. */
export function normaliseServer(server: string): string {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new Error(`not a server address: ${server} (write it as http://host:port or https://host)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`not an http(s) address: ${server}`);
  return url.toString().replace(/\/+$/, '');
}

async function readFileConfig(file: string): Promise<Partial<Config>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON: run trove login again`);
  }
  const o = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  return {
    ...(typeof o.server === 'string' ? { server: o.server } : {}),
    ...(typeof o.apiKey === 'string' ? { apiKey: o.apiKey } : {}),
  };
}

/** The server and key to use: the variables first, then the file; an error saying what to do when either is missing. */
export async function loadConfig(environment: Environment = processEnvironment()): Promise<Config> {
  const file = configPath(environment);
  const stored = await readFileConfig(file);
  const server = environment.env.TROVE_SERVER || stored.server;
  const apiKey = environment.env.TROVE_API_KEY || stored.apiKey;
  if (!server || !apiKey) {
    throw new Error(`not logged in: run trove login --server URL (or set TROVE_SERVER and TROVE_API_KEY)`);
  }
  return { server: normaliseServer(server), apiKey };
}

/** Writes the file whole (a temporary file renamed over it), readable by its owner alone. */
export async function saveConfig(config: Config, environment: Environment = processEnvironment()): Promise<string> {
  const file = configPath(environment);
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  // The mode given to writeFile only applies to a new file; a left-over temporary keeps its own.
  await chmod(temporary, 0o600);
  await rename(temporary, file);
  return file;
}
