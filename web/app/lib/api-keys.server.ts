/** The signed-in user's API keys through the API (the settings page lists, makes and revokes them). */
import { ApiError, ok } from '~/api/client.server';
import type { ApiClient } from '~/api/client.server';
import type { ApiKey, ApiKeyCreated } from '~/api/types';

/** The user's keys, newest first, without their secrets. */
export function listApiKeys(api: ApiClient): Promise<ApiKey[]> {
  return ok(api.GET('/v1/apiKeys'));
}

/** A new key; its `key` is in this answer only (the API keeps a hash). */
export function createApiKey(api: ApiClient, name: string): Promise<ApiKeyCreated> {
  return ok(api.POST('/v1/apiKeys', { body: { name } }));
}

/** Revokes a key at once; one already gone (another tab revoked it) counts as revoked. */
export async function revokeApiKey(api: ApiClient, id: string): Promise<void> {
  try {
    await ok(api.DELETE('/v1/apiKeys/{id}', { params: { path: { id } } }));
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
  }
}

/** A refusal the form shows (a bad name, too many keys); null: not one, the page's error boundary answers it. */
export function apiKeyRefusal(err: unknown): string | null {
  return err instanceof ApiError && (err.status === 400 || err.status === 409) ? err.message : null;
}
