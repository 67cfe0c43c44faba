/** What /settings shows about the server: the user's features, the blob store's disk use, the version. */
import { createApiClient, ok } from '~/api/client.server';
import type { ApiClient } from '~/api/client.server';
import type { Disk, Features, Version } from '~/api/types';

export interface ServerInfo {
  features: Features;
  /** null when the server cannot tell right now (503). */
  disk: Disk | null;
  version: Version;
}

export async function serverInfo(apiUrl: string, api: ApiClient): Promise<ServerInfo> {
  const open = createApiClient(apiUrl);
  const [features, disk, version] = await Promise.all([
    ok(api.GET('/v1/features')),
    ok(open.GET('/disk')).catch(() => null),
    ok(open.GET('/version')),
  ]);
  return { features, disk, version };
}
