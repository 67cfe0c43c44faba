/** What /settings shows about the server: the user's features, their storage use and quota, the blob store's disk use, the version. */
import { createApiClient, ok } from '~/api/client.server';
import type { ApiClient } from '~/api/client.server';
import type { Account, Disk, Features, Version } from '~/api/types';

export interface ServerInfo {
  features: Features;
  /** The user's own storage use and quota; null when the server cannot tell right now. */
  storage: Pick<Account, 'usageBytes' | 'quotaBytes'> | null;
  /** null when the server cannot tell right now (503). */
  disk: Disk | null;
  version: Version;
}

export async function serverInfo(apiUrl: string, api: ApiClient): Promise<ServerInfo> {
  const open = createApiClient(apiUrl);
  const [features, account, disk, version] = await Promise.all([
    ok(api.GET('/v1/features')),
    ok(api.GET('/v1/account')).catch(() => null),
    ok(open.GET('/disk')).catch(() => null),
    ok(open.GET('/version')),
  ]);
  const storage = account ? { usageBytes: account.usageBytes, quotaBytes: account.quotaBytes } : null;
  return { features, storage, disk, version };
}
