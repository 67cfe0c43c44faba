import { usePluginData } from '@docusaurus/useGlobalData';
import type { ApiOperation, TroveSourcesData } from '@site/plugins/trove-sources';

/** What docs/plugins/trove-sources.ts read from the repository at build time. */
export function useTroveData(): TroveSourcesData {
  return usePluginData('trove-sources') as TroveSourcesData;
}

/**
 * The operations named by id and/or by OpenAPI tag, in contract order. An id or tag the contract
 * does not have fails the build (pages must not describe calls that do not exist).
 */
export function useOperations(ops: string[] = [], tags: string[] = []): ApiOperation[] {
  const { operations, tags: known } = useTroveData();
  for (const id of ops)
    if (!operations[id]) throw new Error(`Unknown operationId "${id}": not in openapi/openapi.yaml`);
  for (const t of tags)
    if (!known.includes(t)) throw new Error(`Unknown OpenAPI tag "${t}": not in openapi/openapi.yaml`);
  return Object.values(operations).filter((o) => ops.includes(o.operationId) || o.tags.some((t) => tags.includes(t)));
}

export const AUTH_LABELS: Record<string, string> = {
  bearerAuth: 'user token',
  basicAuth: 'administrator',
  signedUrl: 'signed URL',
};
