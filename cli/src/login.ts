/**
 * `trove login --server URL`: the user's name and password, asked once, buy an API key named after this machine; the
 * key (never the password) is kept in the configuration file, and the session the password opened is closed again.
 */
import { hostname } from 'node:os';
import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { TroveApi } from './api';
import { normaliseServer, saveConfig } from './config';
import type { Environment } from './config';

export interface Terminal {
  input: Readable & { isTTY?: boolean };
  output: Writable;
}

/** Asks the user for a name and a password: the password not echoed on a terminal; from a pipe, its first two lines. */
export async function askCredentials({ input, output }: Terminal): Promise<{ username: string; password: string }> {
  const terminal = Boolean(input.isTTY);
  let muted = false;
  const rl = readline.createInterface({ input, output, terminal });
  // Readline echoes what is typed through this method: silenced while the password is typed.
  const echo = rl as unknown as { _writeToOutput: (s: string) => void };
  const original = echo._writeToOutput.bind(rl);
  echo._writeToOutput = (s: string) => {
    if (!muted || s.startsWith('\r\n') || s === '\n') original(s);
  };
  const lines = rl[Symbol.asyncIterator]();
  const ask = async (question: string): Promise<string> => {
    // From a pipe (a script), the answers are the first two lines: no one reads the questions.
    if (terminal) output.write(question);
    const next = await lines.next();
    if (next.done) throw new Error('no answer on standard input');
    return String(next.value);
  };
  try {
    const username = (await ask('Username: ')).trim();
    muted = terminal;
    const password = await ask('Password: ');
    muted = false;
    if (terminal) output.write('\n');
    if (!username || !password) throw new Error('a username and a password are needed');
    return { username, password };
  } finally {
    rl.close();
  }
}

/** A name for this machine's key (the API takes 1–100 characters). */
export const keyName = (): string => (hostname() || 'trove').slice(0, 100);

export async function login(
  server: string,
  credentials: { username: string; password: string },
  environment?: Environment,
): Promise<{ file: string; keyName: string }> {
  const base = normaliseServer(server);
  const anonymous = new TroveApi(base, { apiKey: '' });
  const { data, error, response } = await anonymous.client.POST('/v1/auth/login', { body: credentials });
  anonymous.close();
  if (!data) {
    if (response.status === 401) throw new Error('wrong username or password');
    const retry = response.headers.get('Retry-After');
    const message = (error as { message?: string } | undefined)?.message ?? response.statusText;
    throw new Error(`login failed: ${response.status} ${message}${retry ? ` (try again in ${retry} s)` : ''}`);
  }
  const session = new TroveApi(base, { bearer: data.accessToken });
  try {
    const name = keyName();
    const made = await session.client.POST('/v1/apiKeys', { body: { name } });
    if (!made.data) {
      const message = (made.error as { message?: string } | undefined)?.message ?? made.response.statusText;
      throw new Error(`cannot make an API key: ${made.response.status} ${message}`);
    }
    const file = await saveConfig({ server: base, apiKey: made.data.key }, environment);
    return { file, keyName: name };
  } finally {
    // The key is what stays; the password's session is not needed any more.
    await session.client.POST('/v1/auth/logout').catch(() => undefined);
    session.close();
  }
}
