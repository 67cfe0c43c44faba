import { OperationRouter, RouteTable } from '../openapi/operation-router';
import { accountRoutes } from './account';
import type { AccountRouteDeps } from './account';
import { albumRoutes } from './albums';
import type { AlbumRouteDeps } from './albums';
import { authRoutes } from './auth';
import type { AuthRouteDeps } from './auth';
import { exploreRoutes } from './explore';
import type { ExploreRouteDeps } from './explore';
import { featureRoutes } from './features';
import type { FeatureRouteDeps } from './features';
import { jobRoutes } from './jobs';
import type { JobRouteDeps } from './jobs';
import { mediaRoutes } from './media';
import type { MediaRouteDeps } from './media';
import { mediaUploadRoutes } from './media-upload';
import type { MediaUploadDeps } from './media-upload';
import { searchRoutes } from './search';
import type { SearchRouteDeps } from './search';
import { sharingRoutes } from './sharing';
import type { SharingRouteDeps } from './sharing';
import { systemRoutes } from './system';
import type { SystemDeps } from './system';
import { userRoutes } from './users';
import type { UserRouteDeps } from './users';

export type GatewayRouteDeps = AccountRouteDeps &
  AlbumRouteDeps &
  AuthRouteDeps &
  ExploreRouteDeps &
  FeatureRouteDeps &
  JobRouteDeps &
  MediaRouteDeps &
  MediaUploadDeps &
  SearchRouteDeps &
  SharingRouteDeps &
  SystemDeps &
  UserRouteDeps;

export interface GatewayRoutes {
  /** The streamed upload: mounted before the body parsers and the OpenAPI validator. */
  upload: OperationRouter;
  /** Every other call: mounted behind the validator and the feature gate. */
  api: OperationRouter;
  /** Every operation both serve. */
  table: RouteTable;
}

/**
 * Every route of the gateway, registered by operationId into one route table. Registering touches
 * none of `deps` (the handlers use them when called), so the table can be built without a server or
 * its dependencies: the served-operations test does so to check it against openapi.yaml and to keep
 * served-operations.json (what the docs build reads) up to date.
 */
export function gatewayRoutes(deps: GatewayRouteDeps): GatewayRoutes {
  const table = new RouteTable();
  const upload = new OperationRouter(table);
  mediaUploadRoutes(upload, deps);
  const api = new OperationRouter(table);
  systemRoutes(api, deps);
  featureRoutes(api, deps);
  authRoutes(api, deps);
  userRoutes(api, deps);
  accountRoutes(api, deps);
  mediaRoutes(api, deps);
  albumRoutes(api, deps);
  sharingRoutes(api, deps);
  exploreRoutes(api, deps);
  searchRoutes(api, deps);
  jobRoutes(api, deps);
  return { upload, api, table };
}
