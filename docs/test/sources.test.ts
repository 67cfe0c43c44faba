/**
 * The docs plugin's check of the contract against the gateway's route table, on the repository as it
 * is (no build): every operation of openapi/openapi.yaml is served, and nothing else is.
 */
import path from 'node:path';
import { loadOperations, loadServedOperations, unservedOperations } from '../plugins/trove-sources';

const REPO_ROOT = path.resolve(__dirname, '../..');
const OPENAPI = path.join(REPO_ROOT, 'openapi/openapi.yaml');
const SERVED = path.join(REPO_ROOT, 'services/gateway/src/routes/served-operations.json');

describe('trove-sources: served operations', () => {
  it('finds every operation of openapi.yaml served by the gateway', () => {
    const { operations } = loadOperations(OPENAPI);
    expect(Object.keys(operations).length).toBeGreaterThan(0);
    expect(unservedOperations(operations, loadServedOperations(SERVED))).toEqual([]);
  });

  it('names an operation without a route, and a route without an operation', () => {
    const { operations } = loadOperations(OPENAPI);
    const served = new Set(Object.keys(operations));
    served.delete('listAlbums');
    served.add('noSuchOperation');
    expect(unservedOperations(operations, served)).toEqual([
      expect.stringContaining('operation "listAlbums" of openapi/openapi.yaml has no gateway route'),
      expect.stringContaining('served-operations.json names "noSuchOperation"'),
    ]);
  });
});
