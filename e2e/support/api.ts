/**
 * The HTTP client of the end-to-end suites: openapi-fetch typed by the contract (`paths` from
 * @trove/openapi), so a call openapi.yaml does not declare, or a body it does not allow, does not
 * compile — and the steps every suite takes with it: users, login, uploads, waiting for processing.
 * Every request comes from a fresh client address unless it names one (the gateway trusts
 * X-Forwarded-For from loopback), so the per-address login limit only bites the tests aiming at it.
 */
import { randomInt } from 'node:crypto';
import createClient from 'openapi-fetch';
import type { Client, Middleware } from 'openapi-fetch';
import type { components, paths } from '@trove/openapi';
import { waitFor } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';

export type Api = Client<paths>;
export type Album = components['schemas']['Album'];
export type MediaItem = components['schemas']['MediaItem'];
export type Tokens = components['schemas']['AuthResponse'];
export type User = components['schemas']['User'];
type UserRequest = components['schemas']['UserRequest'];

/** A password the auth service accepts. */
export const PASSWORD = 'Blue-Harbour-Lights-42';

/** The 508 host addresses of TEST-NET-2/3: never a real client, never a trusted proxy. */
const TEST_ADDRESSES = ['198.51.100', '203.0.113'].flatMap((net) =>
  Array.from({ length: 254 }, (_, i) => `${net}.${i + 1}`),
);
let unusedAddresses: string[] = [];

/**
 * An address from TEST-NET-2/3 that this suite has not used yet (until all 508 are, then they are
 * dealt again in a new order): a test that spends an address's rate limit must not meet another
 * test's spent one by chance.
 */
export function randomTestAddress(): string {
  if (unusedAddresses.length === 0) unusedAddresses = shuffled(TEST_ADDRESSES);
  return unusedAddresses.pop()!;
}

function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(0, i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const freshClientAddress: Middleware = {
  onRequest({ request }) {
    if (!request.headers.has('X-Forwarded-For')) request.headers.set('X-Forwarded-For', randomTestAddress());
    return request;
  },
};

export type Credentials = { bearer: string } | { basic: { username: string; password: string } } | { apiKey: string };

/** The Authorization header of `credentials` (X-Api-Key for an API key). */
export function authorization(credentials: Credentials): { Authorization: string } | { 'X-Api-Key': string } {
  if ('apiKey' in credentials) return { 'X-Api-Key': credentials.apiKey };
  if ('bearer' in credentials) return { Authorization: `Bearer ${credentials.bearer}` };
  const { username, password } = credentials.basic;
  return { Authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` };
}

/** A client of the gateway at `baseUrl`, anonymous or sending `credentials` with every call. */
export function createApi(baseUrl: string, credentials?: Credentials): Api {
  const api = createClient<paths>({ baseUrl, headers: credentials ? authorization(credentials) : {} });
  api.use(freshClientAddress);
  return api;
}

/** The stack's administrator (HTTP basic auth), for /v1/users. */
export function adminApi(stack: Stack): Api {
  return createApi(stack.gatewayUrl, { basic: { username: stack.adminUsername, password: stack.adminPassword } });
}

type Outcome = { data?: unknown; error?: unknown; response: Response };

/** A call's outcome as one value, for assertions: the status, the body (data or error) and the headers. */
export async function answer<R extends Outcome>(
  call: Promise<R>,
): Promise<{ status: number; body: Exclude<R['data'], undefined> | Exclude<R['error'], undefined>; headers: Headers }> {
  const { data, error, response } = await call;
  return {
    status: response.status,
    body: (data ?? error) as Exclude<R['data'], undefined> | Exclude<R['error'], undefined>,
    headers: response.headers,
  };
}

/** The status of a call's answer. */
export async function status(call: Promise<Outcome>): Promise<number> {
  return (await call).response.status;
}

/** The data of a call that must answer `expected` (any 2xx when not given); throws with the answer otherwise. */
export async function ok<R extends Outcome>(
  call: Promise<R>,
  expected?: number,
): Promise<Exclude<R['data'], undefined>> {
  const { data, error, response } = await call;
  if (expected === undefined ? !response.ok : response.status !== expected) {
    throw new Error(
      `${response.url}: expected ${expected ?? '2xx'}, got ${response.status} ${JSON.stringify(error ?? data)}`,
    );
  }
  return data as Exclude<R['data'], undefined>;
}

/** A body (or query) the contract does not allow, sent on purpose to see it refused or ignored. */
export function offContract(value: unknown): never {
  return value as never;
}

let seq = 0;
/** Unique per test run and per call: tests never collide on usernames. */
export const uniqueName = (prefix = 'u'): string => `${prefix}${Date.now().toString(36)}${seq++}`;

export function login(baseUrl: string, username: string, password = PASSWORD, clientAddress = randomTestAddress()) {
  return createApi(baseUrl).POST('/v1/auth/login', {
    body: { username, password },
    headers: { 'X-Forwarded-For': clientAddress },
  });
}

export interface TestUser {
  id: string;
  username: string;
  password: string;
  /** The access token of the user's first session. */
  token: string;
  refreshToken: string;
  /** A client calling as this user. */
  api: Api;
}

/** A new user made by the administrator, logged in. */
export async function newUser(stack: Stack, fields: Partial<UserRequest> = {}): Promise<TestUser> {
  const body = { name: 'Test User', username: uniqueName(), password: PASSWORD, ...fields };
  const user = await ok(adminApi(stack).POST('/v1/users', { body }), 201);
  const tokens = await ok(login(stack.gatewayUrl, body.username, body.password), 200);
  return {
    id: user.id,
    username: body.username,
    password: body.password,
    token: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    api: createApi(stack.gatewayUrl, { bearer: tokens.accessToken }),
  };
}

/** A multipart upload of `data` as `filename`, as a browser's form sends it. */
export function upload(api: Api, data: Buffer, filename: string) {
  return api.POST('/v1/mediaItems', {
    body: { file: filename },
    bodySerializer: () => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(data)]), filename);
      return form;
    },
  });
}

export function getItem(api: Api, id: string): Promise<MediaItem> {
  return ok(api.GET('/v1/mediaItems/{id}', { params: { path: { id } } }), 200);
}

/** Waits until processing of the item has finished (READY or FAILED) and answers it. */
export function settled(api: Api, id: string, timeoutMs = 60_000): Promise<MediaItem> {
  return waitFor(
    async () => {
      const item = await getItem(api, id);
      return item.status === 'READY' || item.status === 'FAILED' ? item : undefined;
    },
    { timeoutMs, intervalMs: 200, what: `item ${id} to finish processing` },
  );
}

/** Uploads a file (it must be new: 201) and waits until the worker has made it READY. */
export async function uploadReady(api: Api, data: Buffer, filename: string, timeoutMs?: number): Promise<MediaItem> {
  const { id } = await ok(upload(api, data, filename), 201);
  const item = await settled(api, id, timeoutMs);
  if (item.status !== 'READY') throw new Error(`processing of ${filename} failed: ${item.failureReason}`);
  return item;
}
