import { badRequest } from '@trove/kit';
import { schemaProperties } from '@trove/openapi';
import type { components } from '@trove/openapi';

export type Schemas = components['schemas'];

/** The update requests: every field optional, at least one of them present. */
export type UpdateRequestName = 'MediaItemRequest' | 'AlbumUpdateRequest' | 'UserUpdateRequest';

/**
 * `value` with only the properties schema `name` of openapi.yaml declares, in the document's
 * order; undefined ones stay out. Answers leave internal fields behind this way, and requests
 * forward only the fields the contract knows, never unknown extras.
 */
export function schemaFields<N extends keyof Schemas>(name: N, value: Schemas[N]): Schemas[N] {
  const source = value as Record<string, unknown>;
  return Object.fromEntries(
    schemaProperties(name).flatMap((key) => (source[key] === undefined ? [] : [[key, source[key]]])),
  ) as Schemas[N];
}

/** The fields of an update request ("at least one") the contract knows; 400 when it names none of them. */
export function requestedChanges<N extends UpdateRequestName>(name: N, body: Schemas[N]): Schemas[N] {
  const changes = schemaFields(name, body);
  if (Object.keys(changes).length === 0)
    throw badRequest(`request/body must contain at least one of ${schemaProperties(name).join(', ')}`);
  return changes;
}
