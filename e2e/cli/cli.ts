/** Running the built `trove` command against a test stack, and reading what it made: shared by the CLI e2e suites. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ok } from '../support/api';
import type { Api, MediaItem, TestUser } from '../support/api';

export const TROVE = path.resolve(__dirname, '../../cli/bin/trove.js');

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `trove` with `args`; `env` on top of a clean environment (no stray TROVE_ variables of the test's). */
export function trove(
  args: string[],
  env: Record<string, string>,
  input?: string,
): { done: Promise<Run>; child: ReturnType<typeof spawn>; stdout: () => string } {
  const child = spawn(process.execPath, [TROVE, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: env.HOME ?? tmpdir(), ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin!.end(input ?? '');
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const done = once(child, 'close').then(([code, signal]) => {
    clearTimeout(timer);
    return { code: code as number | null, signal: signal as NodeJS.Signals | null, stdout, stderr };
  });
  return { done, child, stdout: () => stdout };
}

export const lastLine = (text: string): string => text.trim().split('\n').at(-1) ?? '';

export async function allItems(api: Api): Promise<MediaItem[]> {
  const items: MediaItem[] = [];
  for (let page = 1; ; page++) {
    const batch = await ok(api.GET('/v1/mediaItems', { params: { query: { page, limit: 100 } } }), 200);
    items.push(...batch);
    if (batch.length < 100) return items;
  }
}

export async function albumCounts(api: Api): Promise<Record<string, number>> {
  const albums = await ok(api.GET('/v1/albums', { params: { query: { limit: 100 } } }), 200);
  return Object.fromEntries(albums.map((a) => [a.name, a.mediaItemsCount]));
}

/** A new API key of the user's, for `TROVE_API_KEY`. */
export const apiKeyOf = async (user: TestUser): Promise<string> =>
  (await ok(user.api.POST('/v1/apiKeys', { body: { name: 'e2e' } }), 201)).key;
